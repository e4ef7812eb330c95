/** A distribution written declaratively ({dist: uniform, low, high}, mixtures of them), as a form. */
import { Button } from "../../../components/Button";
import { NumberField, NumberListField, SelectField } from "./fields";
import { def, objectFields, type SchemaNode } from "./fieldSpecs";
import { getPath, pathKey, textOf, type Path } from "../scenarioDoc";
import type { DocProps } from "./SchemaFields";
import { DISTS, starterDist, type Dist } from "./distributions";
import styles from "../Simulations.module.css";

const DEF_NAMES: Record<Dist, string> = {
  constant: "ConstantDist",
  uniform: "UniformDist",
  exponential: "ExponentialDist",
  lognormal: "LognormalDist",
  pareto: "ParetoDist",
  empirical: "EmpiricalDist",
  mixture: "MixtureDist",
};

/** The unit of a parameter: the quantity's for values and scales, none for shapes. */
function paramUnit(name: string, unit: string): string {
  if (name === "mu") return `log ${unit}`;
  if (name === "sigma" || name === "alpha") return "";
  return unit;
}

interface DistributionFieldProps extends DocProps {
  schema: SchemaNode;
  path: Path;
  label: string;
  unit: string;
}

export function DistributionField({ schema, path, label, unit, doc, onSet, error }: DistributionFieldProps) {
  const value = getPath(doc, path);
  const dist = (value !== null && typeof value === "object" && !Array.isArray(value) ? value.dist : undefined) as Dist | undefined;
  const current: Dist = dist !== undefined && DISTS.includes(dist) ? dist : "constant";
  const dataset = current === "empirical" ? getPath(value, ["dataset"]) : undefined;
  const specs = objectFields(schema, def(schema, DEF_NAMES[current])).filter((s) => s.name !== "parts" && s.name !== "dataset" && (dataset === undefined || s.name !== "values"));
  const key = pathKey(path);
  return (
    <fieldset className={styles.fieldset} data-testid={`dist-${key}`}>
      <legend className={styles.legend}>{label}</legend>
      <div className={styles.grid}>
        <SelectField
          label="Distribution"
          value={current}
          options={DISTS.map((d) => ({ value: d, label: d }))}
          onChange={(d) => onSet(path, starterDist(d as Dist))}
          testId={`dist-kind-${key}`}
        />
        {specs.map((spec) =>
          spec.kind === "numbers" ? (
            <NumberListField key={spec.name} spec={{ ...spec, unit }} value={getPath(doc, [...path, spec.name])} onChange={(v) => onSet([...path, spec.name], v)} />
          ) : (
            <NumberField
              key={spec.name}
              spec={{ ...spec, unit: paramUnit(spec.name, unit) }}
              value={getPath(doc, [...path, spec.name])}
              onChange={(v) => onSet([...path, spec.name], v)}
              serverProblem={error !== null && error.path === `${key}.${spec.name}` ? error.message : null}
              testId={`field-${key}.${spec.name}`}
            />
          ),
        )}
      </div>
      {dataset !== undefined && (
        <p className={styles.hint} data-testid={`dist-dataset-${key}`}>
          Resampled from the response times of dataset {textOf(dataset)} (change the dataset in the YAML).
        </p>
      )}
      {current === "mixture" && <MixtureParts schema={schema} path={path} unit={unit} doc={doc} onSet={onSet} error={error} />}
    </fieldset>
  );
}

const WEIGHT_SPEC = {
  name: "weight",
  label: "Weight",
  unit: "",
  kind: "number" as const,
  options: [],
  min: 0,
  nullable: false,
  required: true,
  defaultValue: undefined,
  children: [],
};

function MixtureParts({ schema, path, unit, doc, onSet, error }: DocProps & { schema: SchemaNode; path: Path; unit: string }) {
  const parts = getPath(doc, [...path, "parts"]);
  const list = Array.isArray(parts) ? parts : [];
  const partsPath = [...path, "parts"];
  return (
    <div>
      {list.map((_, i) => (
        <div key={i} className={styles.mixPart}>
          <NumberField spec={WEIGHT_SPEC} value={getPath(doc, [...partsPath, i, 0])} onChange={(v) => onSet([...partsPath, i, 0], v ?? 0)} />
          <DistributionField schema={schema} path={[...partsPath, i, 1]} label={`Part ${i + 1}`} unit={unit} doc={doc} onSet={onSet} error={error} />
          <Button variant="ghost" size="small" disabled={list.length <= 1} onClick={() => onSet(partsPath, list.filter((__, j) => j !== i))}>
            Remove
          </Button>
        </div>
      ))}
      <Button variant="secondary" size="small" onClick={() => onSet(partsPath, [...list, [1, { dist: "constant", value: 1 }]])}>
        Add part
      </Button>
      <p className={styles.hint}>Weights are relative: each part is drawn with probability weight / sum of weights.</p>
    </div>
  );
}
