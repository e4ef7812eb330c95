import styles from "./Spinner.module.css";

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <div className={styles.wrap} role="status" data-testid="loading">
      <span className={styles.spinner} aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
