import { useState } from "react";
import { Button } from "../../components/Button";
import { formatDuration, formatTimeLabel } from "../../lib/format";
import { hasFilter, hasRange, STATUS_CLASSES, type DatasetSlice, type StatusClass } from "./slice";
import styles from "./SliceBar.module.css";

interface SliceBarProps {
  slice: DatasetSlice;
  onChange: (change: Partial<DatasetSlice>) => void;
  onList: () => void;
}

function RangeText({ slice }: { slice: DatasetSlice }) {
  if (!hasRange(slice)) return <span data-testid="slice-range">Whole log</span>;
  const from = slice.from === null ? "the first request" : formatTimeLabel(slice.from);
  const to = slice.to === null ? "the last request" : formatTimeLabel(slice.to);
  const span = slice.from !== null && slice.to !== null ? ` (${formatDuration((slice.to - slice.from) / 1000)})` : "";
  return (
    <span data-testid="slice-range">
      {from} → {to}
      {span}
    </span>
  );
}

/** The time range and filters every tab of the dataset follows, kept in the URL. */
/** The path prefix as typed, applied on Enter or when the field loses focus. */
function PathField({ value, onCommit }: { value: string; onCommit: (path: string) => void }) {
  const [path, setPath] = useState(value);
  return (
    <label className={styles.field}>
      <span className={styles.label}>Path prefix</span>
      <input
        className={styles.input}
        value={path}
        onChange={(e) => setPath(e.target.value)}
        onBlur={() => path.trim() !== value && onCommit(path.trim())}
        onKeyDown={(e) => e.key === "Enter" && onCommit(path.trim())}
        placeholder="/api/"
        data-testid="slice-path"
      />
    </label>
  );
}

export function SliceBar({ slice, onChange, onList }: SliceBarProps) {
  return (
    <section className={styles.bar} aria-label="Time range and filters" data-testid="slice-bar">
      <div className={styles.range}>
        <span className={styles.label}>Range</span>
        <RangeText slice={slice} />
        {hasRange(slice) && (
          <Button variant="secondary" size="small" onClick={() => onChange({ from: null, to: null })} data-testid="slice-reset">
            Whole log
          </Button>
        )}
      </div>
      <div className={styles.filters}>
        <PathField key={slice.path} value={slice.path} onCommit={(path) => onChange({ path })} />
        <label className={styles.field}>
          <span className={styles.label}>Status</span>
          <select
            className={styles.input}
            value={slice.status ?? ""}
            onChange={(e) => onChange({ status: e.target.value === "" ? null : (e.target.value as StatusClass) })}
            data-testid="slice-status"
          >
            <option value="">All</option>
            {STATUS_CLASSES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        {hasFilter(slice) && (
          <Button variant="ghost" size="small" onClick={() => onChange({ path: "", status: null })}>
            Clear filters
          </Button>
        )}
        <Button variant="secondary" size="small" onClick={onList} data-testid="slice-list">
          List requests
        </Button>
      </div>
    </section>
  );
}
