import { ClassPoliciesPage } from "../features/policies/ClassPoliciesPage";

export default function ClassPoliciesRoute() {
  return <ClassPoliciesPage />;
}
