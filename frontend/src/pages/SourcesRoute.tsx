import { SourcesPage } from "../features/sources/SourcesPage";

export default function SourcesRoute() {
  return <SourcesPage />;
}
