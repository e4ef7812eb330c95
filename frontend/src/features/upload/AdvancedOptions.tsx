import { useId } from "react";
import { TextField } from "../../components/TextField";
import { KNOWN_FORMATS, type ParseChoice, type ZipMembers } from "./formats";
import styles from "./UploadPage.module.css";

const NGINX_EXAMPLE = '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent $request_time';

interface Props {
  choice: ParseChoice;
  onChange: (choice: ParseChoice) => void;
}

function FormatSelect({ choice, onChange }: Props) {
  const id = useId();
  const given = choice.logFormat.trim() !== "";
  return (
    <div className={styles.field}>
      <label htmlFor={id}>Format</label>
      <select
        id={id}
        className={styles.select}
        value={given ? "auto" : choice.format}
        disabled={given}
        onChange={(e) => onChange({ ...choice, format: e.target.value as ParseChoice["format"] })}
        data-testid="upload-format"
      >
        <option value="auto">Detect automatically</option>
        {KNOWN_FORMATS.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}

function ZipSelect({ choice, onChange }: Props) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id}>Zip archives</label>
      <select
        id={id}
        className={styles.select}
        value={choice.zipMembers}
        onChange={(e) => onChange({ ...choice, zipMembers: e.target.value as ZipMembers })}
        data-testid="upload-zip-members"
      >
        <option value="first">Read the first file</option>
        <option value="all">Read all files, one after another</option>
      </select>
    </div>
  );
}

/** "Advanced": name the log's format (or give its LogFormat / log_format string) instead of
 * detecting it, and choose which files of a zip archive to read. */
export function AdvancedOptions({ choice, onChange }: Props) {
  return (
    <details className={styles.advanced} data-testid="upload-advanced">
      <summary>Advanced</summary>
      <div className={styles.advancedBody}>
        <FormatSelect choice={choice} onChange={onChange} />
        <TextField
          label="Log format string (Apache LogFormat or nginx log_format)"
          placeholder={NGINX_EXAMPLE}
          value={choice.logFormat}
          onChange={(e) => onChange({ ...choice, logFormat: e.target.value })}
          spellCheck={false}
          data-testid="upload-log-format"
        />
        <p className={styles.hint}>
          A format string replaces the format above. nginx logs the time a request completed: with <code>$request_time</code> in
          the string, each request&apos;s arrival is its logged time minus its duration.
        </p>
        <ZipSelect choice={choice} onChange={onChange} />
      </div>
    </details>
  );
}
