import { useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { useWorkspace } from "../workspaces/workspaceContext";
import { useReadyDatasets, useReports, useSources, type SourceOption } from "./queries";
import styles from "./Reports.module.css";

type Mode = "reports" | "capacity" | "simulation";

function Pick({ label, options, value, onChange, testId }: { label: string; options: SourceOption[]; value: string; onChange: (v: string) => void; testId: string }) {
  return (
    <label className={styles.field}>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
        <option value="">Choose…</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Chooses what to compare: two reports, two capacity analyses of a dataset, or two simulation runs. */
export function ComparePicker() {
  const workspaceId = useWorkspace().current?.id ?? null;
  const [mode, setMode] = useState<Mode>("reports");
  const [datasetId, setDatasetId] = useState("");
  const [a, setA] = useState("");
  const [b, setB] = useState("");
  const navigate = useNavigate();
  const reports = useReports(workspaceId);
  const datasets = useReadyDatasets(workspaceId);
  const runs = useSources(mode === "simulation" ? "simulation" : "capacity", workspaceId, datasetId === "" ? null : Number(datasetId));
  const options: SourceOption[] = mode === "reports" ? (reports.data?.items ?? []).map((r) => ({ id: r.id, label: r.title })) : (runs.data ?? []);
  const go = () => void navigate(mode === "reports" ? `/reports/compare?a=${a}&b=${b}` : `/reports/compare?kind=${mode}&a=${a}&b=${b}`);
  const reset = (m: Mode) => (setMode(m), setA(""), setB(""));
  return (
    <Card title="What to compare" subtitle="B against A: green where B is better, red where it is worse.">
      <div className={styles.row}>
        <label className={styles.field}>
          Compare
          <select value={mode} onChange={(e) => reset(e.target.value as Mode)} data-testid="compare-mode">
            <option value="reports">two reports</option>
            <option value="capacity">two capacity analyses</option>
            <option value="simulation">two simulation runs</option>
          </select>
        </label>
        {mode === "capacity" && (
          <Pick label="Dataset" options={(datasets.data ?? []).map((d) => ({ id: d.id, label: d.name }))} value={datasetId} onChange={(v) => (setDatasetId(v), setA(""), setB(""))} testId="compare-dataset" />
        )}
        <Pick label="A" options={options} value={a} onChange={setA} testId="compare-a" />
        <Pick label="B" options={options} value={b} onChange={setB} testId="compare-b" />
        <Button onClick={go} disabled={a === "" || b === ""} data-testid="compare-go">
          Compare
        </Button>
      </div>
    </Card>
  );
}
