/** Form fields generated from the scenario's JSON Schema for one object of the document. */
import type { FieldSpec } from "./fieldSpecs";
import { starterValue, TUPLE_COLUMNS } from "./fieldSpecs";
import { Button } from "../../../components/Button";
import { CheckField, NumberField, NumberListField, SelectField, TupleTable } from "./fields";
import { getPath, pathKey, textOf, type FieldError, type Json, type Path, type Scenario } from "../scenarioDoc";
import styles from "../Simulations.module.css";

export interface DocProps {
  doc: Scenario;
  onSet: (path: Path, value: Json | undefined) => void;
  error: FieldError | null;
}

function exactProblem(error: FieldError | null, path: Path): string | null {
  return error !== null && error.path === pathKey(path) ? error.message : null;
}

export function SchemaFields({ specs, path, ...props }: DocProps & { specs: FieldSpec[]; path: Path }) {
  return (
    <div className={styles.grid}>
      {specs.map((spec) => (
        <SchemaField key={spec.name} spec={spec} path={[...path, spec.name]} {...props} />
      ))}
    </div>
  );
}

function SchemaField({ spec, path, doc, onSet, error }: DocProps & { spec: FieldSpec; path: Path }) {
  const value = getPath(doc, path);
  const testId = `field-${pathKey(path)}`;
  switch (spec.kind) {
    case "number":
    case "integer":
      return <NumberField spec={spec} value={value} onChange={(v) => onSet(path, v)} serverProblem={exactProblem(error, path)} testId={testId} />;
    case "enum":
      return (
        <SelectField
          label={spec.label}
          value={typeof value === "string" ? value : textOf(spec.defaultValue, spec.options[0] ?? "")}
          options={spec.options.map((o) => ({ value: o, label: o.replace(/_/g, " ") }))}
          onChange={(v) => onSet(path, v)}
          problem={exactProblem(error, path)}
          testId={testId}
        />
      );
    case "boolean":
      return <CheckField label={spec.label} checked={value === true} onChange={(v) => onSet(path, v)} testId={testId} />;
    case "numbers":
      return <NumberListField spec={spec} value={value} onChange={(v) => onSet(path, v)} />;
    case "tuples":
      return <TuplesField spec={spec} path={path} value={value} onSet={onSet} />;
    case "object":
      return <ObjectField spec={spec} path={path} doc={doc} onSet={onSet} error={error} />;
    case "objects":
      return <ObjectListField spec={spec} path={path} doc={doc} onSet={onSet} error={error} />;
  }
}

/** A list of objects (each item's fields from the schema), items added and removed within the schema's bounds. */
function ObjectListField({ spec, path, doc, onSet, error }: DocProps & { spec: FieldSpec; path: Path }) {
  const value = getPath(doc, path);
  const items = Array.isArray(value) ? value : [];
  const starter = () => Object.fromEntries(spec.children.filter((c) => c.required).map((c) => [c.name, starterValue(c)]));
  return (
    <fieldset className={`${styles.fieldset} ${styles.wide}`} style={{ gridColumn: "1 / -1" }}>
      <legend className={styles.legend}>{spec.label}</legend>
      {items.map((_, i) => (
        <fieldset key={i} className={styles.fieldset}>
          <legend className={styles.legend}>
            {spec.label} {i + 1}
          </legend>
          <SchemaFields specs={spec.children} path={[...path, i]} doc={doc} onSet={onSet} error={error} />
          <Button variant="ghost" size="small" disabled={spec.min !== undefined && items.length <= spec.min} onClick={() => onSet(path, items.length > 1 || spec.nullable ? items.filter((__, j) => j !== i) : items)}>
            Remove
          </Button>
        </fieldset>
      ))}
      <Button variant="secondary" size="small" disabled={spec.max !== undefined && items.length >= spec.max} onClick={() => onSet(path, [...items, starter()])}>
        Add
      </Button>
    </fieldset>
  );
}

function TuplesField({ spec, path, value, onSet }: { spec: FieldSpec; path: Path; value: Json | undefined; onSet: DocProps["onSet"] }) {
  const columns = TUPLE_COLUMNS[spec.name] ?? spec.children.map((c) => ({ label: c.label, unit: c.unit }));
  const rows = Array.isArray(value) ? (value as number[][]) : ((spec.defaultValue as number[][] | undefined) ?? [columns.map(() => 0)]);
  return (
    <fieldset className={styles.fieldset}>
      <legend className={styles.legend}>{spec.label}</legend>
      <TupleTable caption={spec.label} columns={columns} rows={rows} onChange={(next) => onSet(path, next)} />
    </fieldset>
  );
}

function ObjectField({ spec, path, doc, onSet, error }: DocProps & { spec: FieldSpec; path: Path }) {
  const value = getPath(doc, path);
  const enabled = !spec.nullable || (value !== null && value !== undefined);
  const enable = (on: boolean) => {
    const starter = Object.fromEntries(spec.children.filter((c) => c.required).map((c) => [c.name, starterValue(c)]));
    onSet(path, on ? starter : undefined);
  };
  return (
    <fieldset className={styles.fieldset}>
      <legend className={styles.legend}>{spec.label}</legend>
      {spec.nullable && <CheckField label={`Use ${spec.label.toLowerCase()}`} checked={enabled} onChange={enable} />}
      {enabled && <SchemaFields specs={spec.children} path={path} doc={doc} onSet={onSet} error={error} />}
    </fieldset>
  );
}
