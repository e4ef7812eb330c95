import { useLocation } from "react-router";
import { ScenarioEditorPage } from "../features/simulations/editor/ScenarioEditor";
import type { Scenario } from "../features/simulations/scenarioDoc";

/** The editor; "Edit a copy" passes the scenario to start from in the navigation state. */
export default function ScenarioRoute() {
  const state = useLocation().state as { scenario?: Scenario } | null;
  return <ScenarioEditorPage initial={state?.scenario} />;
}
