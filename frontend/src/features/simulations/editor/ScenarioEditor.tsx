/** The scenario editor: presets and saved scenarios, the form beside its YAML, run or sweep. */
import { useState } from "react";
import { useNavigate } from "react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { listDatasets } from "../../../api/endpoints";
import { Button } from "../../../components/Button";
import { Card } from "../../../components/Card";
import { Banner } from "../../../components/Banner";
import { ErrorBanner } from "../../../components/ErrorBanner";
import { PageHeader } from "../../../components/PageHeader";
import { Loading } from "../../../components/Spinner";
import { useDocumentTitle } from "../../../lib/useDocumentTitle";
import { useWorkspace } from "../../workspaces/workspaceContext";
import { getDatasetPreset, saveScenario, updateSavedScenario, type SavedScenario } from "../api";
import { SelectField } from "./fields";
import { useCreateSimulation, usePresets, useSavedScenarios, useScenarioSchema, simKeys } from "../queries";
import { ScenarioForm } from "./ScenarioForm";
import { fieldErrorOf, type Scenario } from "../scenarioDoc";
import type { SchemaNode } from "./fieldSpecs";
import styles from "../Simulations.module.css";
import { SweepPanel } from "../sweep/SweepPanel";
import { useScenarioState, type Verdict } from "./useScenarioState";
import { useCanWrite } from "../../workspaces/useRole";

export function ScenarioEditorPage({ initial }: { initial?: Scenario }) {
  useDocumentTitle("New simulation");
  const schema = useScenarioSchema();
  const presets = usePresets();
  const start = initial ?? presets.data?.[0]?.scenario;
  if (schema.error !== null) return <ErrorBanner error={schema.error} title="Could not load the scenario schema" />;
  if (presets.error !== null) return <ErrorBanner error={presets.error} title="Could not load the presets" />;
  if (schema.data === undefined || start === undefined) return <Loading label="Loading the scenario schema…" />;
  return <Editor schema={schema.data} initial={start as Scenario} />;
}

function Editor({ schema, initial }: { schema: SchemaNode; initial: Scenario }) {
  const { current } = useWorkspace();
  const { state, set, setYaml, replace, check } = useScenarioState(initial, current?.id ?? null);
  const navigate = useNavigate();
  const run = useCreateSimulation((s) => void navigate(`/simulations/${s.id}`));
  const serverError = run.error !== null ? fieldErrorOf(run.error) : check.status === "invalid" ? check.error : null;
  const name = typeof state.doc.name === "string" && state.doc.name !== "" ? state.doc.name : "scenario";
  const launch = (sweep?: Parameters<typeof run.mutate>[0]["sweep"]) =>
    run.mutate({ name, scenario: state.doc, sweep, workspace_id: current?.id });
  const canWrite = useCanWrite();
  const canRun = canWrite && state.yamlProblem === null && check.status !== "invalid" && !run.isPending;
  return (
    <>
      <PageHeader
        title="New simulation"
        subtitle="Start from a preset, a dataset or a saved scenario; edit in the form or the YAML, then run it or sweep a field."
        actions={
          <Button onClick={() => launch()} disabled={!canRun} data-testid="run-scenario">
            {run.isPending ? "Starting…" : "Run simulation"}
          </Button>
        }
      />
      <div className={styles.stack}>
        <SourcesBar doc={state.doc} onLoad={replace} />
        {!canWrite && <Banner tone="info" title="Read only">Viewers can open and read scenarios; an editor or owner of this workspace runs them.</Banner>}
        {run.error !== null && <ErrorBanner error={run.error} title="The simulation was not started" />}
        <div className={styles.editor}>
          <ScenarioForm schema={schema} doc={state.doc} onSet={set} error={serverError} />
          <div className={styles.yamlPane}>
            <Verdictline verdict={check} yamlProblem={state.yamlProblem} />
            <label className={styles.label} htmlFor="scenario-yaml">
              Scenario YAML <span className={styles.unit}>(kept in sync with the form both ways)</span>
            </label>
            <textarea id="scenario-yaml" className={styles.yaml} value={state.yaml} spellCheck={false} aria-invalid={state.yamlProblem !== null} onChange={(e) => setYaml(e.target.value)} data-testid="scenario-yaml" />
            <SweepPanel disabled={!canRun} pending={run.isPending} onSweep={launch} />
          </div>
        </div>
      </div>
    </>
  );
}

function Verdictline({ verdict, yamlProblem }: { verdict: Verdict; yamlProblem: string | null }) {
  if (yamlProblem !== null) {
    return (
      <p className={styles.summaryError} role="alert" data-testid="scenario-verdict">
        YAML: {yamlProblem}
      </p>
    );
  }
  if (verdict.status === "invalid") {
    return (
      <p className={styles.summaryError} role="alert" data-testid="scenario-verdict">
        {verdict.error.path === "" ? "document" : verdict.error.path}: {verdict.error.message}
      </p>
    );
  }
  return (
    <p className={verdict.status === "valid" ? styles.valid : styles.muted} data-testid="scenario-verdict">
      {verdict.status === "valid" ? "✓ Valid scenario" : "Checking…"}
    </p>
  );
}

/** Presets, "from this dataset", and the workspace's saved scenarios (load, save, save as). */
function SourcesBar({ doc, onLoad }: { doc: Scenario; onLoad: (doc: Scenario) => void }) {
  const { current } = useWorkspace();
  const workspaceId = current?.id ?? null;
  const presets = usePresets();
  const saved = useSavedScenarios(workspaceId);
  const datasets = useQuery({ queryKey: ["datasets", "list", workspaceId], queryFn: () => listDatasets(workspaceId) });
  const client = useQueryClient();
  const [loaded, setLoaded] = useState<SavedScenario | null>(null);
  const [saveName, setSaveName] = useState("");
  const [problem, setProblem] = useState<unknown>(null);
  const [note, setNote] = useState<string | null>(null);
  const act = (work: Promise<unknown>, done: string) => {
    setProblem(null);
    setNote(null);
    work.then(() => {
      setNote(done);
      void client.invalidateQueries({ queryKey: simKeys.saved(workspaceId) });
    }, setProblem);
  };
  const fromDataset = (choice: string) => {
    const [source, id] = choice.split(":") as ["model" | "replay", string];
    act(
      getDatasetPreset(Number(id), source).then((p) => onLoad(p.scenario as Scenario)),
      source === "replay" ? "Loaded a replay of the dataset's requests (it refers to the dataset by id)." : "Loaded the dataset's workload model.",
    );
  };
  const loadSaved = (id: string) => {
    const item = saved.data?.find((s) => String(s.id) === id) ?? null;
    setLoaded(item);
    if (item !== null) onLoad(item.scenario as Scenario);
  };
  const presetOptions = [{ value: "", label: "Choose a preset…" }, ...(presets.data ?? []).map((p) => ({ value: p.id, label: p.name }))];
  const ready = (datasets.data?.items ?? []).filter((d) => d.status === "ready");
  const datasetOptions = [
    { value: "", label: "Choose a dataset…" },
    ...ready.flatMap((d) => [
      { value: `replay:${d.id}`, label: `${d.name}: replay its requests` },
      { value: `model:${d.id}`, label: `${d.name}: its workload model` },
    ]),
  ];
  const savedOptions = [{ value: "", label: saved.data?.length === 0 ? "None saved yet" : "Choose…" }, ...(saved.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))];
  return (
    <Card title="Start from" subtitle="Loading replaces the scenario below">
      <div className={styles.toolbar}>
        <SelectField label="Preset" value="" options={presetOptions} onChange={(id) => { const p = presets.data?.find((x) => x.id === id); if (p !== undefined) onLoad(p.scenario as Scenario); }} testId="preset-select" />
        <SelectField label="From this dataset" value="" options={datasetOptions} onChange={(id) => id !== "" && fromDataset(id)} testId="dataset-preset-select" />
        <SelectField label="Saved scenario" value={loaded === null ? "" : String(loaded.id)} options={savedOptions} onChange={loadSaved} testId="saved-select" />
        {loaded !== null && (
          <Button variant="secondary" onClick={() => act(updateSavedScenario(loaded.id, doc), `Saved “${loaded.name}”.`)}>
            Save “{loaded.name}”
          </Button>
        )}
        <div className={styles.row}>
          <div className={styles.field}>
            <label className={styles.label} htmlFor="save-as-name">Save as</label>
            <input id="save-as-name" className={styles.input} value={saveName} placeholder="a name for this scenario" onChange={(e) => setSaveName(e.target.value)} />
          </div>
          <Button variant="secondary" disabled={saveName.trim() === ""} onClick={() => act(saveScenario(saveName.trim(), doc, current?.id).then(setLoaded), `Saved as “${saveName.trim()}”.`)} data-testid="save-as">
            Save
          </Button>
        </div>
      </div>
      {note !== null && <p className={styles.valid} role="status">{note}</p>}
      {problem !== null && <ErrorBanner error={problem} title="That did not work" hint="A replay needs a ready dataset; a workload model needs the dataset characterized first." />}
    </Card>
  );
}
