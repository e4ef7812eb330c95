import { useId, useMemo, useState } from "react";
import { Banner } from "../../components/Banner";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { CurveChart } from "../../charts/CurveChart";
import type { CurveChartConfig, CurveRow } from "../../charts/curveConfig";
import { formatDecimal, formatPercent } from "../../lib/format";
import styles from "./Capacity.module.css";
import { kCurve, maxTopFraction, safetyFactor, staticPartition } from "./partitionMath";

const DEFAULT_SAFETY = 0.7;

interface PartitionViewProps {
  /** MaxConn(T) and MaxConn of the class, for the default safety factor. */
  maxConnSla: number | null;
  maxConn: number | null;
  chartWidth?: number;
}

interface SliderProps {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  format: (v: number) => string;
  onChange: (v: number) => void;
  testId: string;
}

function Slider({ label, value, min, max, step, format, onChange, testId }: SliderProps) {
  const id = useId();
  return (
    <div className={styles.slider}>
      <label htmlFor={id}>
        {label} <strong data-testid={`${testId}-value`}>{format(value)}</strong>
      </label>
      <input id={id} type="range" min={min} max={max} step={step} value={value} aria-valuetext={format(value)} data-testid={testId} onChange={(e) => onChange(Number(e.target.value))} />
    </div>
  );
}

const noun = (n: number) => (n === 1 ? "server" : "servers");

/** The N servers as boxes: the High Set (K, top class) and the Low Set (N - K, the others). */
function SetsDiagram({ servers, k }: { servers: number; k: number }) {
  const size = 26;
  const gap = 6;
  const perRow = Math.min(servers, 20);
  const rows = Math.ceil(servers / perRow);
  const width = perRow * (size + gap);
  const height = rows * (size + gap) + 20;
  return (
    <figure className={styles.setsFigure}>
      <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={`High Set of ${k} ${noun(k)} for the top class, Low Set of ${servers - k} ${noun(servers - k)} for the others`}>
        {Array.from({ length: servers }, (_, i) => (
          <rect
            key={i}
            x={(i % perRow) * (size + gap)}
            y={Math.floor(i / perRow) * (size + gap)}
            width={size}
            height={size}
            rx={4}
            className={i < k ? styles.highServer : styles.lowServer}
          />
        ))}
      </svg>
      <figcaption className={styles.setsLegend}>
        <span>
          <span className={`${styles.setSwatch} ${styles.highServer}`} /> High Set: <strong data-testid="partition-k">{k}</strong> {noun(k)} for
          the top class
        </span>
        <span>
          <span className={`${styles.setSwatch} ${styles.lowServer}`} /> Low Set: <strong>{servers - k}</strong> {noun(servers - k)} for
          the others
        </span>
      </figcaption>
    </figure>
  );
}

function chartConfig(maxRho: number, rho: number, k: number): CurveChartConfig {
  return {
    id: "partition-chart",
    title: "High Set size against the top class's share of the load",
    description: "K, the servers reserved for the top class, for every top-class fraction at the chosen N and safety factor.",
    xLabel: "top-class fraction of the load",
    yLabel: "servers in the High Set (K)",
    xUnit: (v) => formatPercent(v, 0),
    yUnit: (v) => `${formatDecimal(v, 0)} servers`,
    xAxisUnit: (v) => formatPercent(v, 0),
    yAxisUnit: (v) => formatDecimal(v, 0),
    series: [{ key: "k", label: "K", color: "chart-throughput", step: true }],
    marks: [
      { id: "max", label: `largest serviceable ${formatPercent(maxRho, 0)}`, color: "chart-breaking", x: maxRho, labelPosition: "bottom" },
      { id: "mix", label: `your mix: K = ${k}`, color: "chart-knee", x: rho, y: k, labelPosition: "left" },
    ],
  };
}

/** StaticPart: how many servers to reserve for the top class, with N, the safety factor and the mix as sliders. */
export function PartitionView({ maxConnSla, maxConn, chartWidth }: PartitionViewProps) {
  const ratio = safetyFactor(maxConnSla, maxConn);
  const fromAnalysis = ratio === null ? null : Math.max(0.01, Math.round(ratio * 100) / 100);
  const [servers, setServers] = useState(10);
  const [safety, setSafety] = useState(fromAnalysis ?? DEFAULT_SAFETY);
  const [rho, setRho] = useState(0.2);
  const part = staticPartition(servers, rho, safety);
  const maxRho = maxTopFraction(servers, safety);
  const rows: CurveRow[] = useMemo(() => kCurve(servers, safety).map((p) => ({ x: p.topFraction, k: p.k })), [servers, safety]);
  // the chart depends on the sliders only, not on the class figures that follow the SLA line
  const chart = useMemo(
    () => <CurveChart config={chartConfig(maxRho, rho, part.k)} rows={rows} fixedWidth={chartWidth} height={280} xMax={1} yMax={servers} />,
    [maxRho, rho, part.k, rows, chartWidth, servers],
  );
  const shared = formatDecimal(rho * servers, 2);
  const slack = formatDecimal(servers * (1 - rho) * (1 - safety), 2);
  return (
    <Card
      title="Partition the cluster"
      subtitle="Reserve a High Set of servers for the top user class (StaticPart): the sliders answer at once."
      testId="partition-view"
    >
      <div className={styles.partitionGrid}>
        <div className={styles.sliders}>
          <Slider label="Servers (N)" value={servers} min={2} max={60} step={1} format={(v) => formatDecimal(v, 0)} onChange={setServers} testId="partition-servers" />
          <Slider label="Safety factor" value={safety} min={0.01} max={1} step={0.01} format={(v) => formatDecimal(v, 2)} onChange={setSafety} testId="partition-safety" />
          <Slider label="Top-class fraction" value={rho} min={0} max={1} step={0.01} format={(v) => formatPercent(v, 0)} onChange={setRho} testId="partition-top" />
          <p className={styles.muted}>
            {fromAnalysis === null
              ? `Safety factor = MaxConn(T) / MaxConn of the class; no observed load meets the current threshold, so it is set by hand (${formatDecimal(DEFAULT_SAFETY, 2)} to start).`
              : `Safety factor = MaxConn(T) / MaxConn of this class = ${formatDecimal(maxConnSla, 1)} / ${formatDecimal(maxConn, 1)} = ${formatDecimal(fromAnalysis, 2)}.`}{" "}
            {fromAnalysis !== null && Math.abs(safety - fromAnalysis) > 0.005 && (
              <Button size="small" variant="ghost" onClick={() => setSafety(fromAnalysis)}>
                Use the analysis' {formatDecimal(fromAnalysis, 2)}
              </Button>
            )}
          </p>
          <SetsDiagram servers={servers} k={part.k} />
        </div>
        {chart}
      </div>
      <p className={styles.partitionSentence} data-testid="partition-sentence">
        K = ⌈ρN + N(1 − ρ)(1 − s)⌉ = ⌈{shared} + {slack}⌉ = {part.kFormula}: the top class's own share of the {servers} servers plus the part of the
        normal share a server gives up to hold the SLA{part.kFormula !== part.k ? `, clamped to ${part.k} so that each set keeps at least one server` : ""}.
      </p>
      {part.cannotMeet && (
        <Banner tone="warning" title="The cluster cannot meet the top-class SLA at this mix" testId="partition-warning">
          Above {formatPercent(maxRho, 0)} top-class traffic the formula asks for all {servers} servers, which would refuse every normal request: add servers, or
          raise the threshold (a higher safety factor).
        </Banner>
      )}
    </Card>
  );
}
