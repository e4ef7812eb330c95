import { useParams } from "react-router";
import { PublicReportPage } from "../features/reports/PublicReportPage";

export default function ReportPublicRoute() {
  return <PublicReportPage token={useParams().token ?? ""} />;
}
