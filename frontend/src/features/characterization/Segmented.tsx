import type { KeyboardEvent } from "react";
import styles from "./Characterization.module.css";

interface SegmentedProps<T extends string | number> {
  label: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
  testId?: string;
}

const STEP: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/** A row of mutually exclusive options (an ARIA radio group): one tab stop, the checked
 * option; the arrow keys move the choice (wrapping), Home and End to the first and last. */
export function Segmented<T extends string | number>({ label, options, value, onChange, testId }: SegmentedProps<T>) {
  const checked = Math.max(0, options.findIndex((o) => o.value === value));
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = STEP[event.key];
    const to = event.key === "Home" ? 0 : event.key === "End" ? options.length - 1 : step === undefined ? null : (checked + step + options.length) % options.length;
    const option = to === null ? undefined : options[to];
    if (option === undefined || to === null) return;
    event.preventDefault();
    onChange(option.value);
    event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="radio"]')[to]?.focus();
  };
  return (
    <div className={styles.segmented} role="radiogroup" aria-label={label} data-testid={testId} onKeyDown={onKeyDown}>
      {options.map((o, i) => (
        <button
          key={String(o.value)}
          type="button"
          role="radio"
          aria-checked={o.value === value}
          tabIndex={i === checked ? 0 : -1}
          className={styles.segment}
          onClick={() => onChange(o.value)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
