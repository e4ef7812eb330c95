/** Inputs for scenario fields: numbers with units and schema bounds, selects, lists, tuple tables. */
import { useId, useState, type ReactNode } from "react";
import { Button } from "../../../components/Button";
import { numberProblem, type FieldSpec } from "./fieldSpecs";
import { parseNumberList, textOf, type Json } from "../scenarioDoc";
import styles from "../Simulations.module.css";

interface FieldFrameProps {
  id: string;
  label: string;
  unit?: string;
  problem: string | null;
  hint?: ReactNode;
  children: ReactNode;
}

export function FieldFrame({ id, label, unit, problem, hint, children }: FieldFrameProps) {
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
        {unit !== undefined && unit !== "" && <span className={styles.unit}> ({unit})</span>}
      </label>
      {children}
      {problem !== null && (
        <span className={styles.problem} id={`${id}-problem`} role="alert">
          {problem}
        </span>
      )}
      {problem === null && hint !== undefined && <span className={styles.hint}>{hint}</span>}
    </div>
  );
}

function formatNumber(value: Json | undefined): string {
  return typeof value === "number" ? String(value) : "";
}

interface NumberFieldProps {
  spec: FieldSpec;
  value: Json | undefined;
  onChange: (value: number | undefined) => void;
  /** The server's message for this field, if it named it. */
  serverProblem?: string | null;
  testId?: string;
}

/** The text of a number input: what the user typed while it still means the value, else the value. */
function useNumberText(value: Json | undefined, onChange: (value: number | undefined) => void): [string, (next: string) => void] {
  const [draft, setDraft] = useState<{ text: string; value: Json | undefined }>({ text: formatNumber(value), value });
  const text = draft.value === value ? draft.text : formatNumber(value);
  const change = (next: string) => {
    const number = next.trim() === "" ? undefined : Number(next);
    const usable = number === undefined || Number.isFinite(number);
    setDraft({ text: next, value: usable ? number : value });
    if (usable) onChange(number);
  };
  return [text, change];
}

/** A number typed freely (2e-7, 0.110); empty means "the default". */
export function NumberField({ spec, value, onChange, serverProblem = null, testId }: NumberFieldProps) {
  const id = useId();
  const [text, change] = useNumberText(value, onChange);
  const parsed = text.trim() === "" ? null : Number(text);
  const problem = numberProblem(spec, parsed) ?? serverProblem;
  const placeholder = spec.defaultValue === undefined || spec.defaultValue === null ? (spec.blank ?? "") : `default ${textOf(spec.defaultValue)}`;
  return (
    <FieldFrame id={id} label={spec.label} unit={spec.unit} problem={problem}>
      <input
        id={id}
        className={styles.input}
        inputMode="decimal"
        value={text}
        placeholder={placeholder}
        aria-invalid={problem !== null}
        aria-describedby={problem !== null ? `${id}-problem` : undefined}
        data-testid={testId}
        onChange={(e) => change(e.target.value)}
      />
    </FieldFrame>
  );
}

interface SelectFieldProps {
  label: string;
  unit?: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
  problem?: string | null;
  testId?: string;
}

export function SelectField({ label, unit, value, options, onChange, problem = null, testId }: SelectFieldProps) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label} unit={unit} problem={problem}>
      <select id={id} className={styles.input} value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

export function CheckField({ label, checked, onChange, testId }: { label: string; checked: boolean; onChange: (checked: boolean) => void; testId?: string }) {
  return (
    <label className={styles.check}>
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} data-testid={testId} />
      {label}
    </label>
  );
}

/** A list of numbers typed as "1, 2, 4". */
export function NumberListField({ spec, value, onChange }: { spec: FieldSpec; value: Json | undefined; onChange: (v: number[] | undefined) => void }) {
  const id = useId();
  const shown = Array.isArray(value) ? value.map((v) => textOf(v)).join(", ") : "";
  const [text, setText] = useState(shown);
  const current = parseNumberList(text);
  const display = current !== null && JSON.stringify(current) === JSON.stringify(value ?? []) ? text : shown;
  const problem = current === null ? "numbers separated by commas" : null;
  return (
    <FieldFrame id={id} label={spec.label} unit={spec.unit} problem={problem} hint="comma-separated">
      <input
        id={id}
        className={styles.input}
        value={display}
        aria-invalid={problem !== null}
        onChange={(e) => {
          setText(e.target.value);
          const list = parseNumberList(e.target.value);
          if (list !== null) onChange(list.length > 0 ? list : undefined);
        }}
      />
    </FieldFrame>
  );
}

interface TupleTableProps {
  caption: string;
  columns: { label: string; unit: string }[];
  rows: number[][];
  onChange: (rows: number[][]) => void;
  testId?: string;
}

/** Rows of numbers (a rate profile, step-scaling bands, a schedule), each row editable and removable. */
export function TupleTable({ caption, columns, rows, onChange, testId }: TupleTableProps) {
  const set = (r: number, c: number, v: number) => onChange(rows.map((row, i) => (i === r ? row.map((x, j) => (j === c ? v : x)) : row)));
  const last = rows[rows.length - 1] ?? columns.map(() => 0);
  return (
    <div className={styles.field} data-testid={testId}>
      <table className={styles.tuples}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col">
                {c.label} {c.unit !== "" && <span className={styles.unit}>({c.unit})</span>}
              </th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={r}>
              {row.map((x, c) => (
                <td key={c}>
                  <NumberCell label={`${columns[c]?.label ?? ""} of row ${r + 1}`} value={x} onChange={(v) => set(r, c, v)} />
                </td>
              ))}
              <td>
                <Button variant="ghost" size="small" onClick={() => onChange(rows.filter((_, i) => i !== r))} aria-label={`Remove row ${r + 1}`} disabled={rows.length <= 1}>
                  Remove
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div>
        <Button variant="secondary" size="small" onClick={() => onChange([...rows, [...last]])}>
          Add row
        </Button>
      </div>
    </div>
  );
}

function NumberCell({ label, value, onChange }: { label: string; value: number; onChange: (v: number) => void }) {
  const [text, change] = useNumberText(value, (v) => {
    if (v !== undefined) onChange(v);
  });
  return <input className={styles.input} inputMode="decimal" aria-label={label} value={text} onChange={(e) => change(e.target.value)} />;
}
