import { useParams } from "react-router";
import { ReportPage } from "../features/reports/ReportPage";
import { NotFoundPage } from "./NotFoundRoute";

export default function ReportRoute() {
  const id = Number(useParams().reportId);
  return Number.isInteger(id) && id > 0 ? <ReportPage key={id} reportId={id} /> : <NotFoundPage />;
}
