import { ReportsPage } from "../features/reports/ReportsPage";

export default function ReportsRoute() {
  return <ReportsPage />;
}
