import type { TrafficSummary } from "../../api/models";
import { StatCard } from "../../components/StatCard";
import {
  formatBytes,
  formatCount,
  formatCountOf,
  formatDateTime,
  formatDuration,
  formatLatency,
  formatPercent,
  formatRate,
  splitUnit,
} from "../../lib/format";
import styles from "./StatGrid.module.css";
import { WHY } from "./summaryCharts";

function LatencyCards({ latency }: { latency: NonNullable<TrafficSummary["latency"]> }) {
  return (
    <>
      <StatCard
        label="Latency p50"
        {...splitUnit(formatLatency(latency.p50_s))}
        hint={`median · mean ${formatLatency(latency.mean_s)}`}
        testId="stat-latency-p50"
      />
      <StatCard label="Latency p95" {...splitUnit(formatLatency(latency.p95_s))} hint="95% of requests took at most this" testId="stat-latency-p95" />
      <StatCard
        label="Latency p99"
        {...splitUnit(formatLatency(latency.p99_s))}
        hint={`max ${formatLatency(latency.max_s)} · ${formatCountOf(latency.count, "timed request")}`}
        testId="stat-latency-p99"
      />
    </>
  );
}

/** The interval of the peak rate in words: "minute", "hour", or a duration ("5 min"). */
function peakInterval(seconds: number): string {
  if (seconds === 60) return "minute";
  if (seconds === 3600) return "hour";
  if (seconds === 86400) return "day";
  return formatDuration(seconds);
}

export function StatGrid({ summary: s, sliced = false }: { summary: TrafficSummary; sliced?: boolean }) {
  const bytes = s.bytes_total ?? null;
  const perRequest = bytes !== null && s.request_count > 0 ? bytes / s.request_count : null;
  const rejected = sliced ? "in the range and filters" : s.rejected_count > 0 ? `${formatCountOf(s.rejected_count, "line")} rejected` : "every line parsed";
  const errors = s.error_rate ?? null;
  const clientErrors = s.client_error_rate ?? null;
  return (
    <div className={styles.grid}>
      <StatCard label="Requests" value={formatCount(s.request_count)} hint={rejected} testId="stat-requests" />
      <StatCard
        label="Time span"
        value={formatDuration(s.span_s)}
        hint={`${formatDateTime(s.first_ts)} → ${formatDateTime(s.last_ts)}`}
        testId="stat-span"
      />
      <StatCard label="Mean rate" {...splitUnit(formatRate(s.mean_rate_per_s))} hint="requests ÷ time span" testId="stat-mean-rate" />
      <StatCard label="Peak rate" {...splitUnit(formatRate(s.peak_rate_per_min / 60))} hint={`busiest ${peakInterval(s.peak_bucket_s)}`} testId="stat-peak-rate" />
      <StatCard
        label="Server errors (5xx)"
        value={errors === null ? null : formatPercent(errors, 2)}
        hint={formatCountOf(s.status_counts?.["5xx"] ?? 0, "response")}
        why={WHY.status}
        tone={errors !== null && errors >= 0.01 ? "danger" : "neutral"}
        testId="stat-error-rate"
      />
      <StatCard
        label="Client errors (4xx)"
        value={clientErrors === null ? null : formatPercent(clientErrors, 2)}
        hint={formatCountOf(s.status_counts?.["4xx"] ?? 0, "response")}
        why={WHY.status}
        tone={clientErrors !== null && clientErrors >= 0.05 ? "warning" : "neutral"}
        testId="stat-client-error-rate"
      />
      {bytes === null ? (
        <StatCard label="Data volume" value={null} why={WHY.bytes} testId="stat-bytes" />
      ) : (
        <StatCard
          label="Data volume"
          {...splitUnit(formatBytes(bytes))}
          hint={perRequest === null ? undefined : `${formatBytes(perRequest)} per request`}
          testId="stat-bytes"
        />
      )}
      {s.latency !== null && <LatencyCards latency={s.latency} />}
    </div>
  );
}
