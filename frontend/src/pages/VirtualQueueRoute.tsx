import { VirtualQueuePage } from "../features/policies/VirtualQueuePage";

export default function VirtualQueueRoute() {
  return <VirtualQueuePage />;
}
