import { useId } from "react";
import { useWorkspace } from "./workspaceContext";
import styles from "./WorkspaceSwitcher.module.css";

export function WorkspaceSwitcher() {
  const { workspaces, current, select } = useWorkspace();
  const id = useId();
  if (current === null) return null;
  return (
    <div className={styles.switcher}>
      <label className={styles.label} htmlFor={id}>
        Workspace
      </label>
      <select
        id={id}
        className={styles.select}
        value={current.id}
        onChange={(e) => select(Number(e.target.value))}
        data-testid="workspace-switcher"
      >
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
    </div>
  );
}
