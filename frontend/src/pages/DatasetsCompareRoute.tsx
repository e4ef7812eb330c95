import { CompareDatasetsPage } from "../features/datasets/compare/CompareDatasetsPage";

export default function DatasetsCompareRoute() {
  return <CompareDatasetsPage />;
}
