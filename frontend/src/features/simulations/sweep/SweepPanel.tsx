/** Run a field over a list of values (or a grid of two fields) as one sweep. */
import { useState } from "react";
import { Button } from "../../../components/Button";
import { Card } from "../../../components/Card";
import { CheckField } from "../editor/fields";
import type { SweepIn } from "../api";
import styles from "../Simulations.module.css";
import { buildSweep, runCount, SWEEP_FIELDS, type SweepAxisDraft } from "./sweep";

interface SweepPanelProps {
  disabled: boolean;
  pending: boolean;
  onSweep: (sweep: SweepIn) => void;
}

export function SweepPanel({ disabled, pending, onSweep }: SweepPanelProps) {
  const [first, setFirst] = useState<SweepAxisDraft>({ path: "autoscaling.upper", values: "0.6, 0.7, 0.8, 0.9" });
  const [second, setSecond] = useState<SweepAxisDraft>({ path: "autoscaling.time_steps", values: "1, 4" });
  const [grid, setGrid] = useState(false);
  const sweep = buildSweep(first, grid ? second : null);
  const runs = runCount(sweep);
  return (
    <Card title="Sweep" subtitle="One run per value (or per pair: a grid), spread over the workers">
      <div className={styles.stack} style={{ gap: "var(--space-3)" }}>
        <AxisFields label="Field" axis={first} onChange={setFirst} testId="sweep-first" />
        <CheckField label="Cross with a second field (grid)" checked={grid} onChange={setGrid} />
        {grid && <AxisFields label="Second field" axis={second} onChange={setSecond} testId="sweep-second" />}
        {typeof sweep === "string" && <p className={styles.problem} role="alert">{sweep}</p>}
        <div>
          <Button variant="secondary" disabled={disabled || typeof sweep === "string"} onClick={() => typeof sweep !== "string" && onSweep(sweep)} data-testid="run-sweep">
            {pending ? "Starting…" : `Run sweep (${runs} runs)`}
          </Button>
        </div>
      </div>
    </Card>
  );
}

function AxisFields({ label, axis, onChange, testId }: { label: string; axis: SweepAxisDraft; onChange: (a: SweepAxisDraft) => void; testId: string }) {
  const listId = `${testId}-fields`;
  return (
    <div className={styles.grid}>
      <div className={styles.field}>
        <label className={styles.label} htmlFor={`${testId}-path`}>{label} <span className={styles.unit}>(dotted path)</span></label>
        <input id={`${testId}-path`} list={listId} className={styles.input} value={axis.path} onChange={(e) => onChange({ ...axis, path: e.target.value })} data-testid={`${testId}-path`} />
        <datalist id={listId}>
          {SWEEP_FIELDS.map((f) => (
            <option key={f.path} value={f.path}>{f.label}</option>
          ))}
        </datalist>
      </div>
      <div className={styles.field}>
        <label className={styles.label} htmlFor={`${testId}-values`}>Values <span className={styles.unit}>(comma-separated)</span></label>
        <input id={`${testId}-values`} className={styles.input} value={axis.values} onChange={(e) => onChange({ ...axis, values: e.target.value })} data-testid={`${testId}-values`} />
      </div>
    </div>
  );
}
