import { useMemo, useState } from "react";
import { Link, useInRouterContext } from "react-router";
import { Banner } from "../../components/Banner";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { StatCard } from "../../components/StatCard";
import { CurveChart } from "../../charts/CurveChart";
import { formatDecimal, formatDuration, formatRatePerS } from "../../lib/format";
import styles from "./Capacity.module.css";
import { responseConfig, responseRows, throughputConfig, throughputRows } from "./concurrencyCharts";
import { useRecommendations } from "./queries";
import { ExportControl } from "../exports/ExportControl";
import { CONCURRENCY_KINDS } from "../exports/api";
import { poolSentence, type SctReport, type SctServer } from "./sctReport";

interface ConcurrencyViewProps {
  /** The analysis whose per-server recommendations the server computes. */
  analysisId: number;
  report: SctReport;
  /** The analysed window's length; null: the whole trace. */
  windowS?: number | null;
  /** Fixed chart width for tests (jsdom has no layout). */
  chartWidth?: number;
}

function ServerPicker({ names, value, onChange }: { names: string[]; value: string; onChange: (n: string) => void }) {
  if (names.length < 2) return null;
  return (
    <div className={styles.picker} role="group" aria-label="Server">
      {names.map((n) => (
        <Button key={n} size="small" variant={n === value ? "primary" : "secondary"} aria-pressed={n === value} onClick={() => onChange(n)}>
          {n}
        </Button>
      ))}
    </div>
  );
}

function Figures({ server }: { server: SctServer }) {
  const usl = server.usl;
  return (
    <div className={styles.statGrid}>
      <StatCard label="Q_lower" value={<span data-testid="sct-q-lower">{server.q_lower ?? "–"}</span>} unit="requests" hint="recommended pool size" />
      <StatCard
        label="Q_upper"
        value={server.q_upper ?? `> ${server.q_max_observed ?? "–"}`}
        unit="requests"
        hint={server.q_upper === null ? "no decline seen up to the highest level" : "largest size that keeps the peak throughput"}
      />
      <StatCard label="TP_max" value={formatRatePerS(server.tp_max_per_s)} hint="throughput of the stable stage" />
      <StatCard
        label="USL N*"
        value={usl?.n_star === null || usl?.n_star === undefined ? "–" : formatDecimal(usl.n_star, 1)}
        unit="requests"
        hint={usl === null ? "the USL could not be fitted" : `contention σ ${formatDecimal(usl.sigma, 3)}, coherency κ ${formatDecimal(usl.kappa, 4)}`}
      />
    </div>
  );
}

/** Concurrency-aware scaling, when SCT found a pool size: the reason with its numbers and a scenario to try. */
function ScalingRecommendation({ analysisId, name }: { analysisId: number; name: string }) {
  const routed = useInRouterContext(); // rendered alone (outside a router), the reason stands without its link
  const rec = useRecommendations(analysisId).data?.items.find((r) => r.class_name === name);
  if (rec === undefined) return null;
  return (
    <p className={styles.muted} style={{ marginBottom: "var(--space-3)" }} data-testid="sct-scaling-recommendation">
      {rec.text}
      {routed && rec.link != null && (
        <>
          {" "}
          <Link to={rec.link.to} state={rec.link.scenario == null ? undefined : { scenario: rec.link.scenario }} data-testid="sct-scaling-link">
            {rec.link.label} →
          </Link>
        </>
      )}
    </p>
  );
}

/** The SCT model of one trace: per server the scatter, the rational range, Q_lower and the USL. */
export function ConcurrencyView({ analysisId, report, windowS = null, chartWidth }: ConcurrencyViewProps) {
  const names = Object.keys(report.servers);
  const [picked, setPicked] = useState(names[0] ?? "");
  const server = report.servers[picked];
  const tpRows = useMemo(() => (server === undefined ? [] : throughputRows(server)), [server]);
  const rtRows = useMemo(() => (server === undefined ? [] : responseRows(server)), [server]);
  if (server === undefined || server.levels.length === 0) {
    return (
      <Banner tone="info" title="No concurrency levels">
        No server of this trace has enough 50 ms intervals at any concurrency level. Record a longer trace, or one with more load.
      </Banner>
    );
  }
  const xMax = Math.max(...server.levels.map((l) => l.n));
  return (
    <div className={styles.stack} data-testid="concurrency-view">
      <ServerPicker names={names} value={picked} onChange={setPicked} />
      {server.warnings.length > 0 && (
        <Banner tone="warning" title="Read these figures with care" testId="sct-warnings">
          <ul className={styles.warningList}>
            {server.warnings.map((w) => (
              <li key={w}>{w.charAt(0).toUpperCase() + w.slice(1)}.</li>
            ))}
          </ul>
        </Banner>
      )}
      <Card title="Best pool size" subtitle={`Scatter-Concurrency-Throughput model over ${windowS === null ? "the whole trace" : `the trace's most recent ${formatDuration(windowS)}`}.`}>
        <p className={styles.poolSentence} data-testid="sct-recommendation">
          {poolSentence(picked, server)}
        </p>
        <ScalingRecommendation analysisId={analysisId} name={picked} />
        <ExportControl source={{ kind: "analysis", id: analysisId }} kinds={CONCURRENCY_KINDS} label="Export pool sizes" testId="sct-export" />
        <Figures server={server} />
      </Card>
      <div className={styles.chartGrid}>
        <Card>
          <CurveChart config={throughputConfig(picked, server)} rows={tpRows} fixedWidth={chartWidth} xMax={xMax} />
        </Card>
        <Card>
          <CurveChart config={responseConfig(picked, server)} rows={rtRows} fixedWidth={chartWidth} xMax={xMax} />
        </Card>
      </div>
    </div>
  );
}
