import { BackgroundPage } from "../features/policies/BackgroundPage";

export default function BackgroundPolicyRoute() {
  return <BackgroundPage />;
}
