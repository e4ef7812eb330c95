import type { ReactNode } from "react";
import styles from "./Banner.module.css";

export type BannerTone = "error" | "info" | "warning" | "success";

interface BannerProps {
  tone: BannerTone;
  title?: ReactNode;
  children?: ReactNode;
  testId?: string;
}

function Icon({ tone }: { tone: BannerTone }) {
  const path =
    tone === "success"
      ? "M6 10.5l2.5 2.5L14 7.5"
      : tone === "info"
        ? "M10 9v5M10 6.2v.1"
        : "M10 6v5M10 13.8v.1";
  return (
    <svg className={styles.icon} viewBox="0 0 20 20" fill="none" aria-hidden="true">
      <circle cx="10" cy="10" r="8.5" stroke="currentColor" strokeWidth="1.6" />
      <path d={path} stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}

/** A coloured message box; ErrorBanner builds on it. */
export function Banner({ tone, title, children, testId }: BannerProps) {
  return (
    <div
      className={[styles.banner, styles[tone]].join(" ")}
      role={tone === "error" ? "alert" : "status"}
      data-testid={testId}
    >
      <Icon tone={tone} />
      <div className={styles.content}>
        {title !== undefined && <div className={styles.title}>{title}</div>}
        {children}
      </div>
    </div>
  );
}

