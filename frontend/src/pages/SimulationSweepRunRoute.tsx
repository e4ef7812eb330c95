import { useParams } from "react-router";
import { SweepRunView } from "../features/simulations/sweep/SweepRunView";
import { NotFoundPage } from "./NotFoundRoute";

export default function SimulationSweepRunRoute() {
  const params = useParams();
  const id = Number(params.simulationId);
  const index = Number(params.index);
  if (!Number.isInteger(id) || id <= 0 || !Number.isInteger(index) || index < 0) return <NotFoundPage />;
  return <SweepRunView key={`${id}-${index}`} simulationId={id} index={index} />;
}
