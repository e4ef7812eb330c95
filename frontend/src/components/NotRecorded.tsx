import styles from "./NotRecorded.module.css";

/** In place of a chart or table whose data the log does not record: its title and a one-line why. */
export function NotRecorded({ title, why, testId }: { title: string; why: string; testId?: string }) {
  return (
    <section className={styles.box} data-testid={testId} data-not-recorded="true" aria-label={title}>
      <span className={styles.title}>{title}</span>
      <span className={styles.why}>not recorded: {why}</span>
    </section>
  );
}
