import type { Dataset, TrafficSummary } from "../../api/models";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import { Loading } from "../../components/Spinner";
import { StatCard } from "../../components/StatCard";
import { formatCount, formatPercent } from "../../lib/format";
import charStyles from "../characterization/Characterization.module.css";
import { ShareBar } from "../characterization/ShareBar";
import styles from "./DatasetDetail.module.css";
import { useSummary } from "./queries";
import { RejectsCard } from "./RejectsCard";

function Report({ summary: s, given }: { summary: TrafficSummary; given: boolean }) {
  const skipped = s.skipped_count;
  const lines = s.request_count + s.rejected_count + skipped;
  const requestLines = s.request_count + s.rejected_count; // skipped lines hold no request
  return (
    <div className={styles.stack} data-testid="parse-report">
      <Card title={given ? "Format given at upload" : "Format detected"} testId="parse-format">
        <dl className={styles.facts}>
          <dt>Format</dt>
          <dd>
            <code style={{ overflowWrap: "anywhere" }}>{s.format}</code>
          </dd>
          <dt>Confidence</dt>
          <dd>
            {formatPercent(s.format_confidence, 1)} of the sampled lines parse in this format
            {given ? " (named at upload, not detected)" : ""}
          </dd>
        </dl>
        {s.notes.length > 0 && (
          <ul className={styles.notes}>
            {s.notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        )}
      </Card>
      <div className={charStyles.grid}>
        <StatCard label="Lines read" value={formatCount(lines)} hint="parsed, rejected and skipped lines" testId="parse-lines" />
        <StatCard
          label="Lines parsed"
          value={formatCount(s.request_count)}
          hint={`${formatPercent(requestLines > 0 ? s.request_count / requestLines : 0, 2)} of the request lines`}
          testId="parse-parsed"
        />
        <StatCard
          label="Lines rejected"
          value={formatCount(s.rejected_count)}
          hint={s.rejected_count === 0 ? "none" : "kept out of every chart"}
          tone={s.rejected_count > 0 ? "warning" : "neutral"}
          testId="parse-rejected"
        />
        <StatCard
          label="Lines skipped"
          value={formatCount(skipped)}
          hint={skipped === 0 ? "none" : "headers, directives, blank lines: not requests"}
          testId="parse-skipped"
        />
      </div>
      <Card title="Parsed and rejected lines" subtitle="Of the lines that hold a request; skipped lines are not counted.">
        <ShareBar
          label="Lines"
          shares={{ parsed: s.request_count / Math.max(requestLines, 1), rejected: s.rejected_count / Math.max(requestLines, 1) }}
          colors={{ parsed: "status-2xx", rejected: "status-5xx" }}
        />
      </Card>
      <RejectsCard summary={s} />
    </div>
  );
}

/** The format (detected, or named at upload) and its confidence, lines parsed, rejected and
 * skipped (headers, directives, blank lines: apart from rejects, and outside the parsed share),
 * the rejected lines with reasons. */
export function ParseReport({ dataset }: { dataset: Dataset }) {
  const summary = useSummary(dataset.id, true);
  if (summary.isPending) return <Loading label="Loading the parse report…" />;
  if (summary.isError) return <ErrorBanner error={summary.error} title="Could not load the parse report" />;
  const options = dataset.parse_options;
  return <Report summary={summary.data} given={Boolean(options?.format ?? options?.log_format)} />;
}
