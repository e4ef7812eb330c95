import { useMemo } from "react";
import { CurveChart } from "../../charts/CurveChart";
import type { CurveChartConfig } from "../../charts/curveConfig";
import { Card } from "../../components/Card";
import { StatCard } from "../../components/StatCard";
import { formatBytes, formatCount, formatDecimal, formatDuration } from "../../lib/format";
import styles from "./Characterization.module.css";
import { FitCard } from "./FitCard";
import type { CharacterizationResult } from "./result";
import { ShareBar } from "./ShareBar";
import { countHistogramRows } from "./shaping";

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
  return (
    <div className={styles.grid}>
      <StatCard label="Pages" value={formatCount(p.count)} hint={`${formatCount(p.with_base)} with a base request`} testId="workload-pages" />
      <StatCard label="Objects per page" value={formatDecimal(p.objects_per_page_mean, 2)} hint="mean embedded objects" />
      <StatCard label="Bytes per page" value={formatBytes(p.bytes_per_page_mean)} hint="mean, base + objects" />
      <StatCard label="Sessions" value={formatCount(s.count)} testId="workload-sessions" />
      <StatCard label="Pages per session" value={formatDecimal(s.pages_per_session_mean, 2)} hint={`${formatDecimal(s.requests_per_session_mean, 2)} requests per session`} />
      {p.load_time_s_mean !== null && <StatCard label="Page load time" value={formatDuration(p.load_time_s_mean)} hint="mean, seen at the server" />}
    </div>
  );
}

export function WorkloadTab({ result }: { result: CharacterizationResult }) {
  const sessionRows = useMemo(() => countHistogramRows(result.display.pages_per_session), [result]);
  const names = FIT_ORDER.filter((n) => n in result.fits);
  return (
    <div className={styles.stack} data-testid="workload-tab">
      <Card title="Class mix" subtitle="Share of requests in each class under the dataset's rules (see the Rules tab).">
        <div className={styles.stack}>
          <ShareBar label="Request classes" shares={result.classes.request} testId="class-mix-request" />
          <ShareBar label="User classes" shares={result.classes.user} testId="class-mix-user" />
        </div>
      </Card>
      <Composition result={result} />
      <Card>
        <CurveChart config={PAGES_PER_SESSION} rows={sessionRows} height={240} />
      </Card>
      <h2 style={{ margin: 0 }}>Fitted distributions</h2>
      <p className={styles.muted} style={{ margin: 0 }}>
        Maximum-likelihood fits over lognormal, Pareto, exponential, Weibull, gamma and inverse Gaussian; the family with the lowest AIC is chosen. KS is the largest gap between the fitted and the observed CDF.
      </p>
      <div className={styles.twoCols}>
        {names.map((n) => (
          <FitCard key={n} name={n} fit={result.fits[n] as NonNullable<(typeof result.fits)[string]>} hist={result.histograms[n]} />
        ))}
      </div>
    </div>
  );
}
