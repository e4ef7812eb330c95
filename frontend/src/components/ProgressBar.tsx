import type { ReactNode } from "react";
import styles from "./ProgressBar.module.css";
import { toPercent } from "./progress";

export type ProgressTone = "active" | "success" | "danger";

interface ProgressBarProps {
  /** Fraction done 0..1; null while unknown (indeterminate). */
  value: number | null;
  label: string;
  caption?: ReactNode;
  tone?: ProgressTone;
  compact?: boolean;
  testId?: string;
}

export function ProgressBar({ value, label, caption, tone = "active", compact = false, testId }: ProgressBarProps) {
  const percent = toPercent(value);
  const cls = [
    styles.wrapper,
    tone === "active" ? "" : styles[tone],
    compact ? styles.compact : "",
    percent === null ? styles.indeterminate : "",
  ].join(" ");
  return (
    <div className={cls}>
      {!compact && (
        <div className={styles.labels}>
          <span className={styles.label}>{label}</span>
          <span className={styles.value}>{percent === null ? "" : `${percent}%`}</span>
        </div>
      )}
      <div
        className={styles.track}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={percent === null ? "in progress" : `${percent}%`}
        data-testid={testId}
      >
        <div className={styles.fill} style={{ width: `${percent ?? 0}%` }} />
      </div>
      {caption !== undefined && <div className={styles.caption}>{caption}</div>}
    </div>
  );
}
