import type { ReactNode } from "react";
import styles from "./StatCard.module.css";

export type StatTone = "neutral" | "warning" | "danger";

interface StatCardProps {
  label: string;
  /** null: the log does not record what this figure needs; shown as "not recorded", never 0. */
  value: ReactNode | null;
  /** Shown smaller after the value, e.g. "req/min". */
  unit?: string;
  hint?: ReactNode;
  /** Why the figure is not recorded (shown when `value` is null), e.g. "this log has no status codes". */
  why?: string;
  tone?: StatTone;
  testId?: string;
}

export function StatCard({ label, value, unit, hint, why, tone = "neutral", testId }: StatCardProps) {
  if (value === null) {
    return (
      <div className={[styles.stat, styles.notRecorded].join(" ")} data-testid={testId} role="group" aria-label={label} data-not-recorded="true">
        <span className={styles.label}>{label}</span>
        <span className={styles.value}>not recorded</span>
        {why !== undefined && <span className={styles.hint}>{why}</span>}
      </div>
    );
  }
  const toneClass = tone === "neutral" ? "" : styles[tone];
  return (
    <div className={[styles.stat, toneClass].join(" ")} data-testid={testId} role="group" aria-label={label}>
      <span className={styles.label}>{label}</span>
      <span className={styles.value}>
        {value}
        {unit !== undefined && unit !== "" && <span className={styles.unit}> {unit}</span>}
      </span>
      {hint !== undefined && <span className={styles.hint}>{hint}</span>}
    </div>
  );
}
