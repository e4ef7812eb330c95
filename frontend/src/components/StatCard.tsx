import type { ReactNode } from "react";
import styles from "./StatCard.module.css";

export type StatTone = "neutral" | "warning" | "danger";

interface StatCardProps {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  tone?: StatTone;
  testId?: string;
}

export function StatCard({ label, value, hint, tone = "neutral", testId }: StatCardProps) {
  const toneClass = tone === "neutral" ? "" : styles[tone];
  return (
    <div className={[styles.stat, toneClass].join(" ")} data-testid={testId} role="group" aria-label={label}>
      <span className={styles.label}>{label}</span>
      <span className={styles.value}>{value}</span>
      {hint !== undefined && <span className={styles.hint}>{hint}</span>}
    </div>
  );
}
