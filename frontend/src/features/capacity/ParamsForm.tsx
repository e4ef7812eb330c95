import { useId, useState, type SyntheticEvent } from "react";
import type { CapacityParams, Stance } from "../../api/models";
import { DEFAULT_DRAFT, draftToParams, SERVERS_FIELD_ID, STANCES, THRESHOLD_FIELD_ID, type ParamsDraft } from "./params";
import { Button } from "../../components/Button";
import { ErrorBanner } from "../../components/ErrorBanner";
import { TextField } from "../../components/TextField";
import fieldStyles from "../../components/TextField.module.css";
import styles from "./Capacity.module.css";

interface ParamsFormProps {
  onRun: (params: CapacityParams) => void;
  running: boolean;
  error: unknown;
  canRun: boolean;
  /** Why this dataset cannot give a capacity analysis, said before it is started. */
  blocker?: string | null;
  /** Why the window length does not apply (its field hidden), as for a metrics source's step
   *  intervals, which record no servers either; null: a log's windows. */
  windowFixed?: string | null;
}

export function ParamsForm({ onRun, running, error, canRun, blocker = null, windowFixed = null }: ParamsFormProps) {
  const [draft, setDraft] = useState(DEFAULT_DRAFT);
  const [problem, setProblem] = useState<string | null>(null);
  const stanceId = useId();
  const set = (patch: Partial<ParamsDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    const params = draftToParams(draft);
    setProblem(typeof params === "string" ? params : null);
    if (typeof params !== "string") onRun(params);
  };
  return (
    <form className={styles.form} onSubmit={submit} aria-label="Capacity analysis parameters">
      <div className={styles.fields}>
        <TextField label="Percentile" type="number" min={50} max={99.9} step={0.1} value={draft.percentile} onChange={(e) => set({ percentile: e.target.value })} />
        <div className={fieldStyles.field}>
          <label className={fieldStyles.label} htmlFor={stanceId}>
            Stance
          </label>
          <select id={stanceId} className={fieldStyles.input} value={draft.stance} onChange={(e) => set({ stance: e.target.value as Stance })}>
            {STANCES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label} — {s.hint}
              </option>
            ))}
          </select>
        </div>
        <TextField id={THRESHOLD_FIELD_ID} label="Threshold (s, optional)" type="number" min={0} step="any" placeholder="from the stance" value={draft.threshold} onChange={(e) => set({ threshold: e.target.value })} />
        {windowFixed === null ? (
          <TextField label="Window (s)" type="number" min={1} max={3600} step="any" value={draft.window} onChange={(e) => set({ window: e.target.value })} />
        ) : (
          <p className={styles.muted} data-testid="capacity-window-fixed">
            Window: {windowFixed}
          </p>
        )}
        <TextField
          id={SERVERS_FIELD_ID}
          label={windowFixed === null ? "Servers in this log (optional)" : "Servers behind these series (optional)"}
          type="number"
          min={1}
          max={10000}
          step={1}
          placeholder={windowFixed === null ? "from the log" : "not recorded"}
          value={draft.servers}
          onChange={(e) => set({ servers: e.target.value })}
        />
        <Button type="submit" disabled={running || !canRun || blocker !== null} data-testid="capacity-run" className={styles.runButton}>
          {running ? "Starting…" : "Run analysis"}
        </Button>
      </div>
      {blocker !== null && (
        <p className={styles.problem} data-testid="capacity-blocker">
          {blocker}
        </p>
      )}
      {problem !== null && <p className={styles.problem} role="alert">{problem}</p>}
      {error !== null && <ErrorBanner error={error} title="Could not start the analysis" />}
    </form>
  );
}
