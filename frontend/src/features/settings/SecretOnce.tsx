import { useState } from "react";
import { Button } from "../../components/Button";
import styles from "./Team.module.css";

/** A secret (token, invitation link) shown once, with a copy button. */
export function SecretOnce({ label, value, note, testId }: { label: string; value: string; note: string; testId: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => void navigator.clipboard.writeText(value).then(() => setCopied(true));
  return (
    <div className={styles.secret} role="status">
      <strong>{label}</strong>
      <code data-testid={testId}>{value}</code>
      <span className={styles.muted}>{note}</span>
      <div>
        <Button variant="secondary" size="small" onClick={copy}>
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
    </div>
  );
}
