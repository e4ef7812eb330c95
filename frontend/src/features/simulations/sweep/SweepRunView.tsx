/** One run of a sweep, opened from its frontier: the run's stored result, never a new simulation. */
import type { ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { ApiError } from "../../../api/errors";
import { Banner } from "../../../components/Banner";
import { Button } from "../../../components/Button";
import { ErrorBanner } from "../../../components/ErrorBanner";
import { PageHeader } from "../../../components/PageHeader";
import { Loading } from "../../../components/Spinner";
import { useDocumentTitle } from "../../../lib/useDocumentTitle";
import type { SweepRun } from "../api";
import { describeValues, scenarioAt } from "./frontier";
import { useCreateSimulation, useSimulation, useSweepRun } from "../queries";
import { asRun, asSweep } from "../run/runDoc";
import { textOf, type Scenario } from "../scenarioDoc";
import { RunCharts } from "../run/SimulationView";

export function SweepRunView({ simulationId, index }: { simulationId: number; index: number }) {
  const query = useSweepRun(simulationId, index);
  const run = query.data;
  useDocumentTitle(run === undefined ? "Sweep run" : `${run.name} · run ${index + 1}`);
  const back = <Link to={`/simulations/${simulationId}`}>← The sweep</Link>;
  if (query.error !== null) {
    const notStored = query.error instanceof ApiError && query.error.code === "run_not_stored";
    return (
      <>
        <PageHeader title={`Run ${index + 1} of the sweep`} back={back} />
        {notStored ? <NotStored simulationId={simulationId} index={index} message={query.error.message} /> : <ErrorBanner error={query.error} title="Could not load the run" />}
      </>
    );
  }
  if (run === undefined) return <Loading label="Loading the run…" />;
  return <StoredRun run={run} back={back} />;
}

function StoredRun({ run, back }: { run: SweepRun; back: ReactNode }) {
  const navigate = useNavigate();
  const doc = asRun(run.result);
  const title = `${run.name} · run ${run.index + 1}`;
  return (
    <>
      <PageHeader
        title={title}
        titleTestId="simulation-title"
        back={back}
        subtitle={<span data-testid="sweep-run-values">{describeValues(run)} · seed {run.seed ?? textOf(run.scenario.seed, "0")} · stored result of the sweep</span>}
        actions={
          <Button variant="secondary" onClick={() => void navigate("/simulations/new", { state: { scenario: run.scenario } })}>
            Edit a copy
          </Button>
        }
      />
      {doc === null ? <Banner tone="warning" title="This run has no charts">Its stored result is not a run document.</Banner> : <RunCharts simulation={{ name: title, scenario: run.scenario }} doc={doc} />}
    </>
  );
}

/** A sweep from before runs were kept: offer to simulate the run again (same scenario and seed). */
function NotStored({ simulationId, index, message }: { simulationId: number; index: number; message: string }) {
  const navigate = useNavigate();
  const sweep = useSimulation(simulationId).data;
  const row = asSweep(sweep?.result)?.runs.find((r) => r.index === index);
  const again = useCreateSimulation((s) => void navigate(`/simulations/${s.id}`));
  const start = () => {
    if (sweep === undefined || row === undefined) return;
    again.mutate({ name: `${sweep.name} · ${describeValues(row)}`, scenario: scenarioAt(sweep.scenario as Scenario, row.values), workspace_id: sweep.workspace_id, seed: sweep.seed });
  };
  return (
    <Banner tone="info" title="This run's charts were not kept" testId="sweep-run-not-stored">
      <p>{message}</p>
      <Button variant="secondary" onClick={start} disabled={row === undefined || again.isPending}>
        {again.isPending ? "Starting…" : "Simulate it again"}
      </Button>
      {again.error !== null && <ErrorBanner error={again.error} title="Could not start the run" />}
    </Banner>
  );
}
