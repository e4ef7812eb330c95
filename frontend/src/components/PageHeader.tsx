import type { ReactNode } from "react";
import styles from "./PageHeader.module.css";

interface PageHeaderProps {
  title: ReactNode;
  subtitle?: ReactNode;
  back?: ReactNode;
  actions?: ReactNode;
  titleTestId?: string;
}

export function PageHeader({ title, subtitle, back, actions, titleTestId }: PageHeaderProps) {
  return (
    <div className={styles.header}>
      <div className={styles.titles}>
        {back !== undefined && <div className={styles.back}>{back}</div>}
        <h1 className={styles.title} data-testid={titleTestId}>
          {title}
        </h1>
        {subtitle !== undefined && <div className={styles.subtitle}>{subtitle}</div>}
      </div>
      {actions}
    </div>
  );
}
