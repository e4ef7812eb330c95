import { useState } from "react";
import { readCapacityReport } from "../../api/capacityReport";
import { Card } from "../../components/Card";
import { AddToReport } from "../reports/AddToReport";
import { AnalysisGate, EarlierRuns } from "./AnalysisRuns";
import { AnalysisView } from "./AnalysisView";
import styles from "./Capacity.module.css";
import { ParamsForm } from "./ParamsForm";
import { useAnalyses, useRunAnalysis } from "./queries";
import { useCanWrite } from "../workspaces/useRole";
import { useDataset, useSummary } from "../datasets/queries";
import { sameSlice, type SliceBody } from "../datasets/slice";

export const NO_LATENCY_NOTICE =
  "This log records no response times, and a capacity analysis needs them: log them (Apache %D, nginx $request_time, IIS time-taken) or upload a latency trace.";

export const PROMETHEUS_WINDOW = "the source's step intervals (each interval is one load window; a window length set here would not apply)";

/** The dataset page's capacity section: parameters, earlier runs, and the selected analysis. */
export function CapacitySection({ datasetId, slice = null }: { datasetId: number; slice?: SliceBody | null }) {
  const analyses = useAnalyses(datasetId);
  const [picked, setPicked] = useState<number | null>(null);
  const run = useRunAnalysis(datasetId, (a) => setPicked(a.id));
  // the runs of the page's range and filters only: another slice's figures are not this one's
  const items = (analyses.data?.items ?? []).filter((a) => a.kind === "capacity" && sameSlice(a.params.slice, slice));
  const selected = (picked !== null && items.some((a) => a.id === picked) ? picked : null) ?? items[0]?.id ?? null;
  const canWrite = useCanWrite();
  const dataset = useDataset(datasetId);
  const fromPrometheus = dataset.data?.format === "prometheus";
  const summary = useSummary(datasetId, !fromPrometheus);
  const blocker = summary.data !== undefined && summary.data.latency == null ? NO_LATENCY_NOTICE : null;
  return (
    <section className={styles.stack} aria-label="Capacity">
      <Card title={canWrite ? "Run a capacity analysis" : "Capacity analyses"} subtitle="Knee curves, SLA targets and capacity per request class. Each parameter set is kept as its own analysis.">
        {fromPrometheus && (
          <p className={styles.muted} data-testid="capacity-intervals-note">
            This dataset comes from Prometheus: its load windows are the source's step intervals (the window length does not apply), and latency percentiles
            are interpolated in the histogram's buckets.
          </p>
        )}
        <div className={styles.runGrid}>
          {canWrite && <ParamsForm
              onRun={(p) => run.mutate(slice === null ? p : { ...p, slice })}
              running={run.isPending}
              error={run.error}
              canRun
              blocker={blocker}
              windowFixed={fromPrometheus ? PROMETHEUS_WINDOW : null}
            />}
          <EarlierRuns analyses={analyses} items={items} selected={selected} onSelect={setPicked} testId="capacity-runs" windows={fromPrometheus ? "step intervals" : undefined} />
        </div>
      </Card>
      {selected !== null && <AddToReport kind="capacity" sourceId={selected} />}
      {selected !== null && (
        <AnalysisGate key={selected} analysisId={selected}>
          {(a) => {
            const report = readCapacityReport(a.result);
            return report === null || a.params.kind !== "capacity" ? null : <AnalysisView key={a.id} analysisId={a.id} report={report} params={a.params} />;
          }}
        </AnalysisGate>
      )}
    </section>
  );
}
