import type { CapacityReport } from "../../api/capacityReport";
import { Card } from "../../components/Card";
import { formatLatency } from "../../lib/format";
import styles from "./Capacity.module.css";
import { bucketOf } from "./histogramMath";

type Note = NonNullable<CapacityReport["histogram"]>;

const FIGURES: Record<string, string> = {
  arrivals: "Arrivals",
  concurrency: "Concurrency",
  servers: "Servers",
  clients: "Clients",
};

/** What a report read off a Prometheus latency histogram cannot give, and the bucket bounds its
 * percentiles were interpolated in (the bucket holding the SLA threshold named). */
export function HistogramNote({ note, thresholdS }: { note: Note; thresholdS: number | undefined }) {
  const finite = note.bucket_bounds_s.filter((b): b is number => typeof b === "number");
  const bucket = thresholdS === undefined ? null : bucketOf(note.bucket_bounds_s, thresholdS);
  return (
    <Card title="Read off a latency histogram" subtitle={`${note.windows} of ${note.intervals} intervals had traffic and latencies: each is a load window.`} testId="histogram-note">
      <p className={styles.muted}>{note.interpolated.charAt(0).toUpperCase() + note.interpolated.slice(1)}.</p>
      {bucket !== null && thresholdS !== undefined && (
        <p data-testid="threshold-bucket">
          The SLA threshold {formatLatency(thresholdS)} lies in the bucket {formatLatency(bucket[0])} to {bucket[1] === null ? "+Inf" : formatLatency(bucket[1])}: no
          figure is finer than that bucket.
        </p>
      )}
      <p className={styles.muted} data-testid="bucket-bounds">
        {finite.length} bucket bounds, {formatLatency(finite[0])} to {formatLatency(finite[finite.length - 1])}, then +Inf
        {finite.length <= 24 && `: ${finite.map((b) => formatLatency(b)).join(", ")}`}.
      </p>
      <dl className={styles.notRecorded}>
        {Object.entries(note.not_recorded).map(([key, text]) => (
          <div key={key}>
            <dt>{FIGURES[key] ?? key}</dt>
            <dd>{text.charAt(0).toUpperCase() + text.slice(1)}.</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
