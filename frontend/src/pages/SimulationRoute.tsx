import { useParams } from "react-router";
import { SimulationView } from "../features/simulations/run/SimulationView";
import { NotFoundPage } from "./NotFoundRoute";

export default function SimulationRoute() {
  const id = Number(useParams().simulationId);
  if (!Number.isInteger(id) || id <= 0) return <NotFoundPage />;
  return <SimulationView key={id} simulationId={id} />;
}
