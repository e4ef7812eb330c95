import { memo, useMemo, useState } from "react";
import { Link } from "react-router";
import type { CapacityParamsIn, CapacityReport, ClassReport, Recommendation } from "../../api/models";
import { Badge } from "../../components/Badge";
import { Banner } from "../../components/Banner";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { CurveChart } from "../../charts/CurveChart";
import { formatDecimal, formatLatency, formatRatePerS } from "../../lib/format";
import styles from "./Capacity.module.css";
import { curveChartRows, hasThroughput, kneeChartConfig, powerChartConfig, powerRows, throughputChartConfig } from "./capacityCharts";
import { SERVERS_FIELD_ID, THRESHOLD_FIELD_ID } from "./params";
import { PartitionView } from "./PartitionView";
import { useRecommendations } from "./queries";
import { ExportControl } from "../exports/ExportControl";
import { CAPACITY_KINDS } from "../exports/api";
import { HistogramNote } from "./HistogramNote";
import { SlaPanel } from "./SlaPanel";
import { slaCurve, slaFigures, thresholdForKey, thresholdRange } from "./slaMath";

interface AnalysisViewProps {
  /** The analysis whose recommendations the server computes at the thresholds shown. */
  analysisId: number;
  report: CapacityReport;
  params: CapacityParamsIn;
  /** Fixed chart width for tests (jsdom has no layout). */
  chartWidth?: number;
}

function initialThresholds(report: CapacityReport): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, cls] of Object.entries(report.classes)) {
    const t = cls.sla?.threshold_s ?? cls.knee?.latency_s;
    if (t !== undefined) out[name] = t;
  }
  return out;
}

function ClassPicker({ names, value, onChange }: { names: string[]; value: string; onChange: (n: string) => void }) {
  if (names.length < 2) return null;
  return (
    <div className={styles.picker} role="group" aria-label="Request class">
      {names.map((n) => (
        <Button key={n} size="small" variant={n === value ? "primary" : "secondary"} aria-pressed={n === value} onClick={() => onChange(n)}>
          {n}
        </Button>
      ))}
    </div>
  );
}

/** A link to the form control that fixes what a notice asks for, when it asks for one. */
function fixFor(notice: string) {
  const target = notice.includes("set a threshold") ? { id: THRESHOLD_FIELD_ID, label: "Set a threshold" } : notice.includes("servers in this log") ? { id: SERVERS_FIELD_ID, label: "Set the servers in this log" } : null;
  if (target === null) return null;
  const focus = () => document.getElementById(target.id)?.focus();
  return (
    <>
      {" "}
      <a href={`#${target.id}`} onClick={focus}>
        {target.label}
      </a>
    </>
  );
}

function Warnings({ report, cls }: { report: CapacityReport; cls: ClassReport | undefined }) {
  const all = [...report.warnings, ...(cls?.warnings ?? [])];
  if (all.length === 0) return null;
  return (
    <Banner tone="warning" title="Read these figures with care" testId="capacity-warnings">
      <ul className={styles.warningList}>
        {all.map((w) => (
          <li key={w}>
            {w.charAt(0).toUpperCase() + w.slice(1)}.
            {fixFor(w)}
          </li>
        ))}
      </ul>
    </Banner>
  );
}

const PowerCard = memo(function PowerCard({ report, chartWidth }: { report: CapacityReport; chartWidth?: number }) {
  const chart = report.power ?? null;
  const available = report.capacity !== null;
  const rows = useMemo(() => (chart === null ? [] : powerRows(chart, available)), [chart, available]);
  return (
    <Card title="Power-ratio capacity" subtitle="The load where throughput divided by latency peaks (cubic fit over the windows)." testId="power-capacity">
      {report.capacity === null ? (
        <p className={styles.muted}>Not available: {report.capacity_reason ?? "no reason given"}.</p>
      ) : (
        <p className={styles.powerLine}>
          Peak load <strong>{formatRatePerS(report.capacity.power_peak_load_per_s)}</strong>, fit R²{" "}
          <strong>{formatDecimal(report.capacity.r2, 2)}</strong>
          {report.capacity.r2 < 0.8 && " (a weak fit: treat the peak as a rough guide)"}
        </p>
      )}
      {chart !== null && chart.points.length > 0 && <CurveChart config={powerChartConfig(chart, available)} rows={rows} fixedWidth={chartWidth} height={260} />}
    </Card>
  );
});

const CONFIDENCE_TONE = { measured: "success", model: "info", "lower bound": "neutral", "weak fit": "neutral" } as const;

const EVIDENCE = { "knee-chart": "the knee chart", "throughput-chart": "the throughput chart", power: "the power-ratio chart" } as const;

interface RecommendationsProps {
  analysisId: number;
  thresholds: Record<string, number>;
  onShow: (r: Recommendation) => void;
}

function Recommendations({ analysisId, thresholds, onShow }: RecommendationsProps) {
  const query = useRecommendations(analysisId, thresholds);
  const recs = query.data?.items ?? [];
  return (
    <Card title="Recommendations" testId="capacity-recommendations">
      {query.isError ? (
        <p className={styles.muted}>The recommendations could not be loaded: {query.error.message}</p>
      ) : query.data === undefined ? (
        <p className={styles.muted}>Loading the recommendations…</p>
      ) : recs.length === 0 ? (
        <p className={styles.muted}>No recommendation: no class has a knee curve.</p>
      ) : (
        <ol className={styles.recs}>
          {recs.map((r) => (
            <li key={r.id}>
              <span>{r.text}</span>
              <Badge tone={CONFIDENCE_TONE[r.confidence]}>{r.confidence}</Badge>
              <a
                className={styles.evidence}
                href={`#${evidenceTarget(r)}`}
                onClick={(e) => {
                  e.preventDefault();
                  onShow(r);
                }}
              >
                Evidence: {EVIDENCE[r.chart]}
              </a>
              {r.link != null && (
                <Link className={styles.evidence} style={{ marginLeft: "var(--space-3)" }} to={r.link.to}>
                  {r.link.label} →
                </Link>
              )}
              <ExportControl source={{ kind: "analysis", id: analysisId, serviceClass: r.class_name || undefined }} kinds={CAPACITY_KINDS} initialKind="haproxy" testId={`export-${r.id}`} />
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function evidenceTarget(r: Recommendation): string {
  return r.chart === "power" ? "power-evidence" : "capacity-charts";
}

/** A finished analysis: class picker, knee and throughput charts, SLA panel, power ratio, recommendations. */
export function AnalysisView({ analysisId, report, params, chartWidth }: AnalysisViewProps) {
  const names = Object.keys(report.classes);
  const [picked, setPicked] = useState(names[0] ?? "");
  const [thresholds, setThresholds] = useState(() => initialThresholds(report));
  const cls = report.classes[picked];
  const curve = useMemo(() => slaCurve(cls?.curve ?? []), [cls]);
  const t = thresholds[picked];
  const figures = useMemo(() => (t === undefined ? null : slaFigures(curve, t)), [curve, t]);
  const setT = (v: number) => setThresholds((old) => ({ ...old, [picked]: v }));
  const [flash, setFlash] = useState<string | null>(null);
  const onShow = (r: Recommendation) => {
    if (r.class_name in report.classes) setPicked(r.class_name);
    const target = evidenceTarget(r);
    setFlash(target);
    document.getElementById(target)?.scrollIntoView({ behavior: "smooth", block: "center" });
  };
  const flashProps = (id: string) => ({
    id,
    className: flash === id ? styles.flash : undefined,
    onAnimationEnd: () => setFlash(null),
  });
  return (
    <div className={styles.stack}>
      <Warnings report={report} cls={cls} />
      <ClassPicker names={names} value={picked} onChange={setPicked} />
      {cls === undefined || figures === null || cls.curve.length === 0 ? (
        <Banner tone="info" title="No knee curve">
          {names.length === 0 ? "The analysis found no request class with enough windows." : `The class ${picked} has no knee curve.`}
        </Banner>
      ) : (
        <ClassView
          name={picked}
          cls={cls}
          params={params}
          report={report}
          chartWidth={chartWidth}
          figures={figures}
          curve={curve}
          onThreshold={setT}
          chartsProps={flashProps("capacity-charts")}
        />
      )}
      {report.histogram != null && <HistogramNote note={report.histogram} thresholdS={t} />}
      <div className={styles.bottomGrid}>
        <Recommendations analysisId={analysisId} thresholds={thresholds} onShow={onShow} />
        <div {...flashProps("power-evidence")}>
          <PowerCard report={report} chartWidth={chartWidth} />
        </div>
      </div>
      {cls !== undefined && figures !== null && (
        <PartitionView key={picked} maxConnSla={figures.max_conn > 0 ? figures.max_conn : null} maxConn={cls.max_conn} chartWidth={chartWidth} />
      )}
    </div>
  );
}

interface ClassViewProps {
  name: string;
  cls: ClassReport;
  params: CapacityParamsIn;
  report: CapacityReport;
  chartWidth?: number;
  figures: NonNullable<ReturnType<typeof slaFigures>>;
  curve: ReturnType<typeof slaCurve>;
  onThreshold: (t: number) => void;
  chartsProps: { id: string; className: string | undefined; onAnimationEnd: () => void };
}

function ClassView({ name, cls, params, chartWidth, figures, curve, onThreshold, chartsProps }: ClassViewProps) {
  const range = useMemo(() => thresholdRange(curve), [curve]);
  const knee = useMemo(() => kneeChartConfig(name, params.percentile, cls, figures), [name, params.percentile, cls, figures]);
  const latencyRows = useMemo(() => curveChartRows(cls.curve, (p) => p.latency_s), [cls.curve]);
  const throughput = useMemo(() => throughputChartConfig(name, cls), [name, cls]);
  const throughputRows = useMemo(() => curveChartRows(cls.curve, (p) => p.throughput_per_s), [cls.curve]);
  const usedStance = params.threshold_s !== null && params.threshold_s !== undefined ? "user" : params.stance;
  return (
    <>
      <div {...chartsProps} className={[hasThroughput(cls.curve) ? styles.chartGrid : "", chartsProps.className ?? ""].join(" ")}>
        <Card>
          <CurveChart
            config={knee}
            rows={latencyRows}
            yMax={range.max}
            fixedWidth={chartWidth}
            threshold={{
              value: figures.threshold_s,
              min: range.min,
              max: range.max,
              keyStep: (key, v) => thresholdForKey(key, v, range),
              onChange: onThreshold,
              label: "SLA threshold",
              format: formatLatency,
              color: "chart-sla",
              testId: "sla-threshold-handle",
            }}
          />
        </Card>
        {hasThroughput(cls.curve) && (
          <Card>
            <CurveChart config={throughput} rows={throughputRows} fixedWidth={chartWidth} />
          </Card>
        )}
      </div>
      <Card title="SLA" subtitle="Move the threshold on the chart: the figures follow without a round trip to the server.">
        <SlaPanel
          className={name}
          cls={cls}
          curve={curve}
          percentile={params.percentile}
          usedStance={usedStance}
          analysisThresholdS={cls.sla?.threshold_s ?? null}
          figures={figures}
          onThreshold={onThreshold}
        />
      </Card>
    </>
  );
}
