import { DatasetsPage } from "../features/datasets/DatasetsPage";

export default function DatasetsRoute() {
  return <DatasetsPage />;
}
