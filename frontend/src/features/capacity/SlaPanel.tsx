import { useId, useState } from "react";
import type { ClassReport, Stance } from "../../api/models";
import { Button } from "../../components/Button";
import { StatCard } from "../../components/StatCard";
import fieldStyles from "../../components/TextField.module.css";
import { formatCount, formatDecimal, formatLatency, formatRatePerS } from "../../lib/format";
import styles from "./Capacity.module.css";
import { percentileLabel } from "./capacityCharts";
import { STANCES, stanceThresholds } from "./params";
import { serversNeeded, slaFigures, type SlaCurve, type SlaFigures } from "./slaMath";

interface SlaPanelProps {
  className: string;
  cls: ClassReport;
  curve: SlaCurve;
  percentile: number;
  /** The stance the analysis used, or "user" when it was given a threshold. */
  usedStance: Stance | "user";
  analysisThresholdS: number | null;
  figures: SlaFigures;
  onThreshold: (t: number) => void;
}

function rateHint(f: SlaFigures): string {
  if (f.below) return "no observed load meets this threshold";
  if (f.capped) return "at least: the threshold is above the whole curve";
  return "largest load whose latency stays under the threshold";
}

type StanceListProps = Pick<SlaPanelProps, "cls" | "curve" | "usedStance" | "onThreshold" | "analysisThresholdS">;

function StanceList({ cls, curve, usedStance, onThreshold, analysisThresholdS }: StanceListProps) {
  // The stance the analysis used shows the server's figure (read off its finer model curve).
  const values = { ...stanceThresholds(cls, curve) };
  if (usedStance !== "user" && analysisThresholdS !== null) values[usedStance] = analysisThresholdS;
  return (
    <ul className={styles.stances} aria-label="Threshold per stance">
      {STANCES.map((s) => {
        const t = values[s.value];
        return (
          <li key={s.value} className={usedStance === s.value ? styles.stanceUsed : undefined}>
            <span className={styles.stanceName}>
              {s.label}
              {usedStance === s.value && <span className={styles.usedTag}> (used)</span>}
            </span>
            <span className={styles.stanceHint}>{s.hint}</span>
            <span className={styles.stanceValue}>{formatLatency(t)}</span>
            <StanceFigures curve={curve} thresholdS={t} />
            <Button size="small" variant="ghost" disabled={t === null} onClick={() => t !== null && onThreshold(t)}>
              Use
            </Button>
          </li>
        );
      })}
      <UserThreshold usedStance={usedStance} onThreshold={onThreshold} curve={curve} />
    </ul>
  );
}

/** MaxRate(T) and MaxConn(T) at a stance's threshold, read off the same curve. */
function StanceFigures({ curve, thresholdS }: { curve: SlaCurve; thresholdS: number | null }) {
  if (thresholdS === null) return <span className={styles.stanceHint}>–</span>;
  const f = slaFigures(curve, thresholdS);
  return (
    <span className={styles.stanceFigures}>
      {f.capped ? "≥ " : ""}
      {formatRatePerS(f.rate_per_s)} · {formatDecimal(f.max_conn, 1)} conn.
    </span>
  );
}

/** A threshold of the user's own, in milliseconds (the fourth row of the stance list). */
function UserThreshold({ usedStance, onThreshold, curve }: Pick<SlaPanelProps, "usedStance" | "onThreshold" | "curve">) {
  const [text, setText] = useState("");
  const id = useId();
  const ms = Number(text);
  const valid = text.trim() !== "" && ms > 0 && ms <= 3_600_000;
  return (
    <li className={usedStance === "user" ? styles.stanceUsed : undefined}>
      <label className={styles.stanceName} htmlFor={id}>
        Yours{usedStance === "user" && <span className={styles.usedTag}> (used)</span>}
      </label>
      <span className={styles.stanceHint}>a threshold of your own</span>
      <span className={styles.userThreshold}>
        <input
          id={id}
          className={fieldStyles.input}
          type="number"
          min={1}
          step="any"
          placeholder="ms"
          value={text}
          aria-label="Your threshold in milliseconds"
          data-testid="sla-user-threshold"
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && valid) onThreshold(ms / 1000);
          }}
        />
        ms
      </span>
      <StanceFigures curve={curve} thresholdS={valid ? ms / 1000 : null} />
      <Button size="small" variant="ghost" disabled={!valid} onClick={() => onThreshold(ms / 1000)}>
        Use
      </Button>
    </li>
  );
}

/** Per class: the threshold, MaxRate(T), MaxConn(T), MaxConn, servers at the peak and at a growth factor. */
export function SlaPanel(props: SlaPanelProps) {
  const { className, cls, percentile, figures: f, analysisThresholdS, onThreshold } = props;
  const [growth, setGrowth] = useState("1.5");
  const growthId = useId();
  const g = Number(growth);
  const atPeak = serversNeeded(cls.peak_load_per_s, 1, f.rate_per_s);
  const atGrowth = growth.trim() === "" ? null : serversNeeded(cls.peak_load_per_s, g, f.rate_per_s);
  const p = percentileLabel(percentile);
  return (
    <div className={styles.slaPanel} aria-label={`SLA for ${className}`} role="region">
      <div className={styles.threshold}>
        <span>
          SLA: {p} of <strong>{className}</strong> under <strong data-testid="sla-threshold">{formatLatency(f.threshold_s)}</strong>
        </span>
        {analysisThresholdS !== null && Math.abs(analysisThresholdS - f.threshold_s) > 1e-12 && (
          <Button size="small" variant="ghost" onClick={() => onThreshold(analysisThresholdS)}>
            Reset to {formatLatency(analysisThresholdS)}
          </Button>
        )}
      </div>
      <div className={styles.statGrid}>
        <StatCard label="MaxRate(T)" value={<span data-testid="sla-max-rate">{formatRatePerS(f.rate_per_s)}</span>} hint={rateHint(f)} tone={f.below ? "danger" : "neutral"} />
        <StatCard label="MaxConn(T)" value={<span data-testid="sla-max-conn">{formatDecimal(f.max_conn, 1)}</span>} unit="connections" hint="concurrent connections at MaxRate(T)" />
        <StatCard label="MaxConn" value={formatDecimal(cls.max_conn, 1)} unit="connections" hint="largest sustainable, at the breaking point" />
        <StatCard label="Observed peak" value={formatRatePerS(cls.peak_load_per_s)} hint={`servers needed: ${formatCount(atPeak)}`} testId="sla-servers-peak" />
      </div>
      <div className={styles.growthRow}>
        <div className={fieldStyles.field}>
          <label className={fieldStyles.label} htmlFor={growthId}>
            Growth factor
          </label>
          <input id={growthId} className={fieldStyles.input} type="number" min={0.1} step={0.1} value={growth} onChange={(e) => setGrowth(e.target.value)} />
        </div>
        <p className={styles.growthResult} data-testid="sla-servers-growth">
          {atGrowth === null
            ? "Enter a growth factor above 0 (and a threshold some load meets)."
            : `${formatCount(atGrowth)} ${atGrowth === 1 ? "server" : "servers"} for ${formatRatePerS(cls.peak_load_per_s * g)} (peak × ${formatDecimal(g, 2)})`}
        </p>
      </div>
      <StanceList {...props} />
    </div>
  );
}
