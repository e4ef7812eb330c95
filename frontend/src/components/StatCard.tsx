import type { ReactNode } from "react";
import styles from "./StatCard.module.css";

export type StatTone = "neutral" | "warning" | "danger";

interface StatCardProps {
  label: string;
  value: ReactNode;
  /** Shown smaller after the value, e.g. "req/min". */
  unit?: string;
  hint?: ReactNode;
  tone?: StatTone;
  testId?: string;
}

export function StatCard({ label, value, unit, hint, tone = "neutral", testId }: StatCardProps) {
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
