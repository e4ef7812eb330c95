import { useState } from "react";
import { Button } from "../../components/Button";
import { formatDuration, formatTimeLabel } from "../../lib/format";
import { hasFilter, hasRange, NO_FILTERS, STATUS_CLASSES, TEXT_FILTERS, type DatasetSlice, type StatusClass } from "./slice";
import styles from "./SliceBar.module.css";

interface SliceBarProps {
  slice: DatasetSlice;
  onChange: (change: Partial<DatasetSlice>) => void;
  onList: () => void;
  /** The dataset keeps intervals, not requests (a Prometheus source's): a range, no filters. */
  rangeOnly?: boolean;
}

function RangeText({ slice, whole }: { slice: DatasetSlice; whole: string }) {
  if (!hasRange(slice)) return <span data-testid="slice-range">{whole}</span>;
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

/** A text filter as typed, applied on Enter or when the field loses focus. */
function TextFilterField({
  label,
  value,
  placeholder,
  testId,
  onCommit,
}: {
  label: string;
  value: string;
  placeholder: string;
  testId: string;
  onCommit: (text: string) => void;
}) {
  const [text, setText] = useState(value);
  return (
    <label className={styles.field}>
      <span className={styles.label}>{label}</span>
      <input
        className={styles.input}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => text.trim() !== value && onCommit(text.trim())}
        onKeyDown={(e) => e.key === "Enter" && onCommit(text.trim())}
        placeholder={placeholder}
        data-testid={testId}
      />
    </label>
  );
}

/** The time range and filters every tab of the dataset follows, kept in the URL. */
export function SliceBar({ slice, onChange, onList, rangeOnly = false }: SliceBarProps) {
  const whole = rangeOnly ? "Every imported interval" : "Whole log";
  return (
    <section className={styles.bar} aria-label="Time range and filters" data-testid="slice-bar">
      <div className={styles.range}>
        <span className={styles.label}>Range</span>
        <RangeText slice={slice} whole={whole} />
        {hasRange(slice) && (
          <Button variant="secondary" size="small" onClick={() => onChange({ from: null, to: null })} data-testid="slice-reset">
            {whole}
          </Button>
        )}
      </div>
      {rangeOnly ? (
        <p className={styles.note} data-testid="slice-range-only">
          This dataset keeps a Prometheus source's intervals, not requests: it takes a time range but no filters.
        </p>
      ) : (
      <div className={styles.filters}>
        <TextFilterField key={`path-${slice.path}`} label="Path prefix" value={slice.path} placeholder="/api/" testId="slice-path" onCommit={(path) => onChange({ path })} />
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
        {TEXT_FILTERS.map((f) => (
          <TextFilterField
            key={`${f.key}-${slice[f.field]}`}
            label={f.label}
            value={slice[f.field]}
            placeholder={f.placeholder}
            testId={`slice-${f.key}`}
            onCommit={(text) => onChange({ [f.field]: text })}
          />
        ))}
        {hasFilter(slice) && (
          <Button variant="ghost" size="small" onClick={() => onChange(NO_FILTERS)}>
            Clear filters
          </Button>
        )}
        <Button variant="secondary" size="small" onClick={onList} data-testid="slice-list">
          List requests
        </Button>
      </div>
      )}
    </section>
  );
}
