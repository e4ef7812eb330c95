import { SimulationsPage } from "../features/simulations/SimulationsPage";

export default function SimulationsRoute() {
  return <SimulationsPage />;
}
