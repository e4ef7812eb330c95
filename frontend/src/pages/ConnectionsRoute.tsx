import { ConnectionsPage } from "../features/policies/ConnectionsPage";

export default function ConnectionsRoute() {
  return <ConnectionsPage />;
}
