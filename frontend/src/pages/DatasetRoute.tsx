import { useParams } from "react-router";
import { DatasetDetail } from "../features/datasets/DatasetDetail";
import { NotFoundPage } from "./NotFoundRoute";

export default function DatasetRoute() {
  const id = Number(useParams().datasetId);
  if (!Number.isInteger(id) || id <= 0) return <NotFoundPage />;
  return <DatasetDetail key={id} datasetId={id} />;
}
