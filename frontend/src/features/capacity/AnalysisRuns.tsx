import { useQueryClient } from "@tanstack/react-query";
import { useEffect, type ReactNode } from "react";
import { isJobActive, type Analysis } from "../../api/models";
import { Badge } from "../../components/Badge";
import { ButtonLink } from "../../components/Button";
import { ErrorBanner } from "../../components/ErrorBanner";
import { Loading } from "../../components/Spinner";
import { formatDateTime } from "../../lib/format";
import { JobProgress } from "../jobs/JobProgress";
import { jobFailure } from "../jobs/jobFailure";
import { useJob } from "../jobs/useJob";
import styles from "./Capacity.module.css";
import { paramsSummary } from "./params";
import { analysisKeys, useAnalyses, useAnalysis } from "./queries";

const FAILURE_HINTS: Record<string, string> = {
  no_latency:
    "Knee curves and SLA targets need a response time per request. Turn on the field named above in the server's log format, collect a new log, and upload it.",
  unusable_data: "Upload a longer log or trace, or run the analysis again with a shorter window.",
  internal_error: "Run the analysis again. If it keeps failing, contact your administrator.",
  job_cancelled: "Run the analysis again.",
};

function statusBadge(a: Analysis) {
  const s = a.job?.status;
  if (s === "succeeded") return <Badge tone="success">done</Badge>;
  if (s === "failed" || s === "cancelled") return <Badge tone="danger">failed</Badge>;
  return <Badge tone="info">running</Badge>;
}

interface RunsListProps {
  items: Analysis[];
  selected: number | null;
  onSelect: (id: number) => void;
  testId: string;
  /** what the load windows are when the dataset fixes them (paramsSummary) */
  windows?: string;
}

/** Earlier analyses of one kind, newest first; the selected one is pressed. */
export function RunsList({ items, selected, onSelect, testId, windows }: RunsListProps) {
  if (items.length === 0) return <p className={styles.muted}>No analysis yet: pick the parameters and run one.</p>;
  return (
    <ul className={styles.runs} aria-label="Analyses of this dataset" data-testid={testId}>
      {items.map((a) => (
        <li key={a.id}>
          <button type="button" className={styles.run} aria-pressed={a.id === selected} onClick={() => onSelect(a.id)}>
            <span className={styles.runParams}>{paramsSummary(a, windows)}</span>
            <span className={styles.runMeta}>
              {statusBadge(a)} {formatDateTime(a.created_at)}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The "Earlier runs" column beside a run form: loading, a load error, or the list. */
export function EarlierRuns({ analyses, ...list }: RunsListProps & { analyses: ReturnType<typeof useAnalyses> }) {
  return (
    <div>
      <h3 className={styles.subheading}>Earlier runs</h3>
      {analyses.isPending ? (
        <Loading label="Loading analyses…" />
      ) : analyses.isError ? (
        <ErrorBanner error={analyses.error} title="Could not load the analyses" />
      ) : (
        <RunsList {...list} />
      )}
    </div>
  );
}

function Running({ analysis }: { analysis: Analysis }) {
  const client = useQueryClient();
  const live = useJob(analysis.job?.id ?? null, analysis.job);
  const job = live.data ?? analysis.job;
  const active = isJobActive(job);
  useEffect(() => {
    if (!active) void client.invalidateQueries({ queryKey: analysisKeys.detail(analysis.id) });
  }, [active, client, analysis.id]);
  if (job === null) return <Loading label="Waiting for the analysis to start…" />;
  return <JobProgress job={job} />;
}

function Failure({ analysis }: { analysis: Analysis }) {
  const error = jobFailure(analysis.job);
  return (
    <ErrorBanner
      error={error}
      title={error.code === "no_latency" ? "This log has no response times" : "The analysis failed"}
      hint={FAILURE_HINTS[error.code] ?? FAILURE_HINTS.internal_error}
      action={
        error.code === "no_latency" ? (
          <ButtonLink to="/upload" variant="secondary" size="small">
            Upload a log with response times
          </ButtonLink>
        ) : undefined
      }
    />
  );
}

interface AnalysisGateProps {
  analysisId: number;
  /** The finished analysis' view, or null when its result is not (yet) of the expected shape. */
  children: (analysis: Analysis) => ReactNode | null;
}

/** Loading, progress and failure states of one analysis; its view once it has succeeded. */
export function AnalysisGate({ analysisId, children }: AnalysisGateProps) {
  const analysis = useAnalysis(analysisId);
  if (analysis.isPending) return <Loading label="Loading the analysis…" />;
  if (analysis.isError) return <ErrorBanner error={analysis.error} title="Could not load the analysis" />;
  const a = analysis.data;
  if (isJobActive(a.job)) return <Running analysis={a} />;
  if (a.job?.status === "failed" || a.job?.status === "cancelled") return <Failure analysis={a} />;
  return children(a) ?? <Running analysis={a} />;
}
