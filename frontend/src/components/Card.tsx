import type { ReactNode } from "react";
import styles from "./Card.module.css";

interface CardProps {
  title?: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
  /** Let tables run edge to edge. */
  flush?: boolean;
  children: ReactNode;
  className?: string;
  testId?: string;
}

export function Card({ title, subtitle, actions, flush = false, children, className, testId }: CardProps) {
  const hasHeader = title !== undefined || actions !== undefined;
  return (
    <section className={[styles.card, className ?? ""].join(" ")} data-testid={testId}>
      {hasHeader && (
        <header className={styles.header}>
          <div>
            {title !== undefined && <h2 className={styles.title}>{title}</h2>}
            {subtitle !== undefined && <p className={styles.subtitle}>{subtitle}</p>}
          </div>
          {actions}
        </header>
      )}
      <div className={flush ? styles.flush : styles.body}>{children}</div>
    </section>
  );
}
