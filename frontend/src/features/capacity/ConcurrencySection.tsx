import { useState, type SyntheticEvent } from "react";
import type { Dataset, SctParams } from "../../api/models";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { EmptyState } from "../../components/EmptyState";
import { ErrorBanner } from "../../components/ErrorBanner";
import { TextField } from "../../components/TextField";
import { AddToReport } from "../reports/AddToReport";
import { AnalysisGate, EarlierRuns } from "./AnalysisRuns";
import styles from "./Capacity.module.css";
import { ConcurrencyView } from "./ConcurrencyView";
import { isTraceFormat, sctDraftToParams, type SctDraft } from "./params";
import { readSctReport } from "./sctReport";
import { useAnalyses, useRunSct } from "./queries";
import { useCanWrite } from "../workspaces/useRole";
import { sameSlice, type SliceBody } from "../datasets/slice";

function SctForm({ onRun, running, error }: { onRun: (p: SctParams) => void; running: boolean; error: unknown }) {
  const [draft, setDraft] = useState<SctDraft>({ interval: "50", window: "" });
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    const params = sctDraftToParams(draft);
    setProblem(typeof params === "string" ? params : null);
    if (typeof params !== "string") onRun(params);
  };
  return (
    <form className={styles.form} onSubmit={submit} aria-label="Concurrency analysis parameters">
      <div className={styles.fields}>
        <TextField label="Interval (ms)" type="number" min={1} max={10000} step="any" value={draft.interval} onChange={(e) => setDraft((d) => ({ ...d, interval: e.target.value }))} />
        <TextField label="Recent window (s, live use; empty: whole trace)" type="number" min={1} step="any" value={draft.window} onChange={(e) => setDraft((d) => ({ ...d, window: e.target.value }))} />
        <Button type="submit" disabled={running} data-testid="sct-run" className={styles.runButton}>
          {running ? "Starting…" : "Find the best pool size"}
        </Button>
      </div>
      {problem !== null && <p className={styles.problem} role="alert">{problem}</p>}
      {error !== null && <ErrorBanner error={error} title="Could not start the analysis" />}
    </form>
  );
}

/** The dataset page's concurrency section for latency traces: SCT runs and the selected one's view. */
export function ConcurrencySection({ datasetId, isTrace, slice = null }: { datasetId: number; isTrace: boolean; slice?: SliceBody | null }) {
  const analyses = useAnalyses(datasetId);
  const [picked, setPicked] = useState<number | null>(null);
  const run = useRunSct(datasetId, (a) => setPicked(a.id));
  // the runs of the page's range and filters only (the range is the analysed window)
  const items = (analyses.data?.items ?? []).filter((a) => a.kind === "sct" && sameSlice(a.params.slice, slice));
  const selected = (picked !== null && items.some((a) => a.id === picked) ? picked : null) ?? items[0]?.id ?? null;
  const canWrite = useCanWrite();
  if (!isTrace) {
    return (
      <EmptyState title="The concurrency view needs a latency trace" testId="sct-not-a-trace">
        The best pool size comes from the concurrency inside each server, which takes a trace with the arrival and the departure (or duration) of every
        request at millisecond resolution, and the server that handled it. Upload such a trace as CSV or JSON lines (columns arrival, departure or
        duration_ms, server).
      </EmptyState>
    );
  }
  return (
    <section className={styles.stack} aria-label="Concurrency">
      <Card title={canWrite ? "Find the best pool size" : "Pool size analyses"} subtitle="Throughput and response time against the concurrency inside each server (SCT model), with the Universal Scalability Law as a second estimate.">
        <div className={styles.runGrid}>
          {canWrite && <SctForm onRun={(p) => run.mutate(slice === null ? p : { ...p, slice })} running={run.isPending} error={run.error} />}
          <EarlierRuns analyses={analyses} items={items} selected={selected} onSelect={setPicked} testId="sct-runs" />
        </div>
      </Card>
      {selected !== null && <AddToReport kind="sct" sourceId={selected} />}
      {selected !== null && (
        <AnalysisGate key={selected} analysisId={selected}>
          {(a) => {
            const report = readSctReport(a.result);
            const windowS = a.params.kind === "sct" ? (a.params.window_s ?? null) : null;
            return report === null ? null : <ConcurrencyView key={a.id} analysisId={a.id} report={report} windowS={windowS} />;
          }}
        </AnalysisGate>
      )}
    </section>
  );
}

/** The dataset page's Concurrency tab. */
export function ConcurrencyTab({ dataset, slice = null }: { dataset: Pick<Dataset, "id" | "format">; slice?: SliceBody | null }) {
  return <ConcurrencySection datasetId={dataset.id} isTrace={isTraceFormat(dataset.format)} slice={slice} />;
}
