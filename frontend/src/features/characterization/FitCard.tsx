import { useMemo } from "react";
import { CurveChart } from "../../charts/CurveChart";
import type { CurveChartConfig } from "../../charts/curveConfig";
import { Card } from "../../components/Card";
import { Table, type Column } from "../../components/Table";
import { formatCount, formatDecimal, formatPercent } from "../../lib/format";
import styles from "./Characterization.module.css";
import type { Candidate, FittedHistogram, FitReport } from "./result";
import { familyName, histogramRows, logTicks, paramRows, quantity, type ParamRow } from "./shaping";

/** Density ticks: plain decimals down to 0.001, then powers of ten ("2e-5"). */
function formatDensityTick(v: number): string {
  if (v === 0) return "0";
  return Math.abs(v) >= 0.001 ? String(Number(v.toPrecision(2))) : v.toExponential(0).replace("e-", "e−");
}

const sig = (v: number | null) => (v === null ? "—" : Number(v.toPrecision(4)).toLocaleString("en-US", { maximumFractionDigits: 6 }));

const PARAM_COLUMNS: Column<ParamRow>[] = [
  { key: "name", header: "Parameter", render: (r) => r.name, mono: true },
  { key: "value", header: "Estimate", align: "right", render: (r) => sig(r.value) },
  { key: "ci", header: "95% CI", align: "right", render: (r) => (r.low === null ? "—" : `${sig(r.low)} – ${sig(r.high)}`) },
];

function candidateColumns(bestAic: number): Column<Candidate>[] {
  return [
    { key: "dist", header: "Family", render: (c) => familyName(c.dist) },
    { key: "daic", header: "ΔAIC", align: "right", render: (c) => formatDecimal(c.aic - bestAic, 1) },
    { key: "ks", header: "KS", align: "right", render: (c) => formatDecimal(c.ks, 3) },
  ];
}

function chartConfig(name: string, h: FittedHistogram, fit: FitReport): CurveChartConfig {
  const q = quantity(name);
  const lo = h.edges[0] ?? 1;
  const hi = h.edges[h.edges.length - 1] ?? lo;
  return {
    id: `fit-chart-${name}`,
    title: q.title,
    description: `Histogram of ${formatCount(fit.n)} values (density) with the fitted ${familyName(fit.dist)} density on top${h.log_x ? "; log x axis, the values span several decades" : ""}.`,
    xLabel: q.title.toLowerCase(),
    yLabel: `density (per ${q.perUnit})`,
    axes: "data",
    xUnit: q.unit,
    yUnit: (v) => `${v.toPrecision(3)} per ${q.perUnit}`,
    yAxisUnit: formatDensityTick,
    logX: h.log_x,
    xTicks: h.log_x ? logTicks(lo, hi).filter((t) => t >= lo && t <= hi) : undefined,
    series: [
      { key: "density", label: "observed", color: "chart-band", fill: true },
      ...(h.fitted_pdf !== null ? [{ key: "fitted", label: `fitted ${familyName(fit.dist)}`, color: "chart-knee" as const, smooth: true }] : []),
    ],
    marks: [],
  };
}

/** One fitted quantity: histogram with the fitted density, the chosen family, parameters with CIs, AIC and KS. */
export function FitCard({ name, fit, hist }: { name: string; fit: FitReport; hist: FittedHistogram | undefined }) {
  const rows = useMemo(() => (hist === undefined ? [] : histogramRows(hist)), [hist]);
  const q = quantity(name);
  if (fit.dist === null || hist === undefined || rows.length === 0) {
    return (
      <Card title={q.title} testId={`fit-${name}`}>
        <p className={styles.muted}>
          Not fitted: {fit.n === 0 ? "the log has no values of this quantity" : (fit.reason ?? `only ${formatCount(fit.n)} values`)}.
        </p>
      </Card>
    );
  }
  const candidates = [...(fit.candidates ?? [])].sort((a, b) => a.aic - b.aic);
  return (
    <Card testId={`fit-${name}`}>
      <div className={styles.stack}>
        <CurveChart config={chartConfig(name, hist, fit)} rows={rows} height={240} />
        <dl className={styles.facts}>
          <dt>Chosen family</dt>
          <dd>
            <strong>{familyName(fit.dist)}</strong> (lowest AIC of {formatCount(candidates.length)})
          </dd>
          <dt>AIC · KS distance</dt>
          <dd>
            {formatDecimal(fit.aic, 1)} · {formatDecimal(fit.ks, 3)}
          </dd>
          <dt>Values</dt>
          <dd>
            {formatCount(fit.n)}
            {fit.zero_fraction > 0 && ` positive, plus ${formatPercent(fit.zero_fraction)} zeros`}
          </dd>
          {fit.body_tail != null && (
            <>
              <dt>Lognormal body + Pareto tail</dt>
              <dd>
                split {q.unit(fit.body_tail.split)}, tail α {formatDecimal(fit.body_tail.alpha, 2)} ({formatPercent(fit.body_tail.tail_fraction)} of values), AIC{" "}
                {formatDecimal(fit.body_tail.aic, 1)}
              </dd>
            </>
          )}
        </dl>
        <Table columns={PARAM_COLUMNS} rows={paramRows(fit)} rowKey={(r) => r.name} caption={`Parameters of the ${familyName(fit.dist)} fit`} />
        {candidates.length > 1 && (
          <details>
            <summary className={styles.muted}>All candidate families</summary>
            <Table columns={candidateColumns(candidates[0]?.aic ?? 0)} rows={candidates} rowKey={(c) => c.dist} caption="Candidate families by AIC" />
          </details>
        )}
      </div>
    </Card>
  );
}
