import { ComparePage } from "../features/reports/ComparePage";

export default function ReportCompareRoute() {
  return <ComparePage />;
}
