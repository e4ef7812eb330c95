import { ComparePage } from "../features/simulations/ComparePage";

export default function CompareRoute() {
  return <ComparePage />;
}
