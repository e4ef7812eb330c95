import type { UnavailableDataset } from "./usePolicyRuns";
import styles from "./Policies.module.css";

/** The workspace's ready datasets that are not offered as a base scenario, with the reason. */
export function UnavailableDatasets({ items }: { items: UnavailableDataset[] }) {
  if (items.length === 0) return null;
  return (
    <div className={styles.muted} data-testid="unavailable-datasets">
      Not offered as a base scenario:
      <ul>
        {items.map((d) => (
          <li key={d.name}>
            {d.name}: {d.reason}
          </li>
        ))}
      </ul>
    </div>
  );
}
