import { useMemo } from "react";
import { CurveChart } from "../../charts/CurveChart";
import type { CurveChartConfig } from "../../charts/curveConfig";
import { Card } from "../../components/Card";
import { NotRecorded } from "../../components/NotRecorded";
import { StatCard } from "../../components/StatCard";
import { formatBytes, formatCount, formatDecimal, formatDuration } from "../../lib/format";
import styles from "./Characterization.module.css";
import { FitCard } from "./FitCard";
import type { CharacterizationResult } from "./result";
import { ShareBar } from "./ShareBar";
import { countHistogramRows, quantity } from "./shaping";

/** Why a workload figure is missing: the field the log does not record. */
const WHY = {
  path: "this log has no paths to tell pages apart",
  client: "this log has no clients to tell sessions apart",
  bytes: "this log has no response sizes",
} as const;

/** The fields each fitted quantity is built on. */
const FIT_NEEDS: Record<string, (keyof typeof WHY | "latency")[]> = {
  objects_per_page: ["path"],
  think_time_s: ["path", "client"],
  requests_per_session: ["client"],
  html_bytes: ["path", "bytes"],
  object_bytes: ["path", "bytes"],
  object_gap_s: ["path"],
  service_time_s: ["latency"],
};

const FIT_ORDER = ["objects_per_page", "think_time_s", "requests_per_session", "html_bytes", "object_bytes", "object_gap_s", "service_time_s"];

const PAGES_PER_SESSION: CurveChartConfig = {
  id: "chart-pages-per-session",
  title: "Pages per session",
  description: "How many pages each session viewed (sessions end after 30 minutes without a request).",
  xLabel: "pages per session",
  yLabel: "sessions",
  axes: "data",
  xUnit: (v) => `${formatCount(v)} pages`,
  xAxisUnit: (v) => formatCount(v),
  yUnit: (v) => `${formatCount(v)} sessions`,
  yAxisUnit: (v) => formatCount(v),
  series: [{ key: "count", label: "sessions", color: "chart-requests", fill: true }],
  marks: [],
};

function Composition({ result }: { result: CharacterizationResult }) {
  const p = result.pages;
  const s = result.sessions;
  const noBytes = result.fields_recorded?.bytes === false;
  return (
    <div className={styles.grid}>
      <StatCard
        label="Pages"
        value={p.count === null ? null : formatCount(p.count)}
        hint={`${formatCount(p.with_base)} with a base request`}
        why={WHY.path}
        testId="workload-pages"
      />
      <StatCard label="Objects per page" value={p.count === null ? null : formatDecimal(p.objects_per_page_mean, 2)} hint="mean embedded objects" why={WHY.path} />
      <StatCard
        label="Bytes per page"
        value={p.count === null || noBytes || p.bytes_per_page_mean === null ? null : formatBytes(p.bytes_per_page_mean)}
        hint="mean, base + objects"
        why={p.count === null ? WHY.path : WHY.bytes}
        testId="workload-bytes-per-page"
      />
      <StatCard label="Sessions" value={s.count === null ? null : formatCount(s.count)} why={WHY.client} testId="workload-sessions" />
      <StatCard
        label="Pages per session"
        value={s.count === null || s.pages_per_session_mean === null ? null : formatDecimal(s.pages_per_session_mean, 2)}
        hint={`${formatDecimal(s.requests_per_session_mean, 2)} requests per session`}
        why={s.count === null ? WHY.client : WHY.path}
      />
      {p.load_time_s_mean !== null && <StatCard label="Page load time" value={formatDuration(p.load_time_s_mean)} hint="mean, seen at the server" />}
    </div>
  );
}

/** The fits the log records the inputs of (all of them on characterizations without `fields_recorded`). */
function recordedFits(result: CharacterizationResult): { shown: string[]; missing: string[] } {
  const held = result.fields_recorded ?? null;
  const names = FIT_ORDER.filter((n) => n in result.fits);
  if (held === null) return { shown: names, missing: [] };
  const ok = (n: string) => (FIT_NEEDS[n] ?? []).every((f) => held[f]);
  return { shown: names.filter(ok), missing: names.filter((n) => !ok(n)) };
}

/** The rules classify by path (request classes) and by client (user classes): say when the log lacks them. */
function classMixSubtitle(result: CharacterizationResult): string {
  const held = result.fields_recorded;
  const base = "Share of requests in each class under the dataset's rules (see the Rules tab).";
  const lacking = [held?.path === false && "paths", held?.client === false && "clients"].filter((x): x is string => typeof x === "string");
  if (lacking.length === 0) return base;
  return `${base} This log has no ${lacking.join(" or ")}: rules on them match no request, so those requests fall in the default class.`;
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

function missingFitsWhy(result: CharacterizationResult): string {
  const held = result.fields_recorded;
  const lacking = [held?.path === false && "paths", held?.client === false && "clients", held?.bytes === false && "response sizes", held?.latency === false && "latencies"].filter(
    (x): x is string => typeof x === "string",
  );
  return `this log has no ${lacking.join(", ")}`;
}

export function WorkloadTab({ result }: { result: CharacterizationResult }) {
  const histogram = result.display.pages_per_session;
  const sessionRows = useMemo(() => (histogram === null ? [] : countHistogramRows(histogram)), [histogram]);
  const { shown: names, missing } = recordedFits(result);
  return (
    <div className={styles.stack} data-testid="workload-tab">
      <Card title="Class mix" subtitle={classMixSubtitle(result)}>
        <div className={styles.stack}>
          <ShareBar label="Request classes" shares={result.classes.request} testId="class-mix-request" />
          <ShareBar label="User classes" shares={result.classes.user} testId="class-mix-user" />
        </div>
      </Card>
      <Composition result={result} />
      {histogram === null ? (
        <NotRecorded
          title="Pages per session"
          why={result.sessions.count === null ? WHY.client : WHY.path}
          testId="chart-pages-per-session-not-recorded"
        />
      ) : (
        <Card>
          <CurveChart config={PAGES_PER_SESSION} rows={sessionRows} height={240} />
        </Card>
      )}
      <h2 style={{ margin: 0 }}>Fitted distributions</h2>
      <p className={styles.muted} style={{ margin: 0 }}>
        Maximum-likelihood fits over lognormal, Pareto, exponential, Weibull, gamma and inverse Gaussian; the family with the lowest AIC is chosen. KS is the largest gap between the fitted and the observed CDF.
      </p>
      {missing.length > 0 && (
        <NotRecorded
          title={`Not fitted: ${missing.map((n) => lowerFirst(quantity(n).title)).join(", ")}`}
          why={missingFitsWhy(result)}
          testId="fits-not-recorded"
        />
      )}
      <div className={styles.twoCols}>
        {names.map((n) => (
          <FitCard key={n} name={n} fit={result.fits[n] as NonNullable<(typeof result.fits)[string]>} hist={result.histograms[n]} />
        ))}
      </div>
    </div>
  );
}
