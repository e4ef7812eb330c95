/** The workload as a form: one class written inline, or several request classes (add, remove,
 * rename, and each one's arrivals or share, pages and service time), in sync with the YAML. */
import { Button } from "../../../components/Button";
import { Card } from "../../../components/Card";
import { addClass, classesOf, removeClass, renameClass, sharedArrivals, splitIntoClasses } from "./classes";
import { DistributionField } from "./DistributionField";
import { CheckField, FieldFrame, NumberField, SelectField, TupleTable } from "./fields";
import { getPath, pathKey, textOf, type Json, type Path, type Scenario } from "../scenarioDoc";
import { SchemaFields, type DocProps } from "./SchemaFields";
import { def, fieldSpec, objectFields, TUPLE_COLUMNS, type SchemaNode } from "./fieldSpecs";
import styles from "../Simulations.module.css";

type Props = DocProps & { schema: SchemaNode };

/** Fields of WorkloadClass drawn by hand here; the schema's others (kind, user, ...) are generated. */
const HAND_DRAWN = ["name", "arrivals", "share", "page", "service_s"];
const STARTER_PAGE: Json = { objects: { dist: "constant", value: 10 }, gap_s: { dist: "uniform", low: 0, high: 1 }, push_fraction: 0 };

export function WorkloadSection(props: Props) {
  const { doc, onSet } = props;
  const classes = classesOf(doc);
  const apply = (next: Scenario) => {
    onSet(["workload"], next.workload);
    if (next.admission !== doc.admission) onSet(["admission"], next.admission);
  };
  if (classes === null) {
    return (
      <Card title="Workload" subtitle="Arrivals, pages and service demand">
        <div className={styles.stack} style={{ gap: "var(--space-3)" }}>
          <ClassFields {...props} base={["workload"]} />
          <div>
            <Button variant="secondary" onClick={() => apply(splitIntoClasses(doc))} data-testid="add-class">
              Split into request classes
            </Button>
          </div>
        </div>
      </Card>
    );
  }
  const names = classes.map((c) => textOf(c.name, "?"));
  return (
    <Card title="Workload" subtitle={`${classes.length} request classes: ${names.join(", ")}`}>
      <div className={styles.stack} style={{ gap: "var(--space-3)" }}>
        {sharedArrivals(doc) && (
          <fieldset className={styles.fieldset}>
            <legend className={styles.legend}>Arrivals shared by the classes (each takes its share; shares add up to 1)</legend>
            <ArrivalsFields {...props} path={["workload", "arrivals"]} />
          </fieldset>
        )}
        {classes.map((_, index) => (
          <ClassCard key={index} {...props} index={index} count={classes.length} apply={apply} />
        ))}
        <div>
          <Button variant="secondary" onClick={() => apply(addClass(doc))} data-testid="add-class">
            Add a class
          </Button>
        </div>
      </div>
    </Card>
  );
}

function ClassCard({ index, count, apply, ...props }: Props & { index: number; count: number; apply: (next: Scenario) => void }) {
  const { schema, doc, error } = props;
  const base: Path = ["workload", "classes", index];
  const specs = objectFields(schema, def(schema, "WorkloadClass"));
  const share = specs.find((s) => s.name === "share");
  const shared = sharedArrivals(doc);
  const nameId = `class-name-${index}`;
  const nameProblem = error !== null && error.path === pathKey([...base, "name"]) ? error.message : null;
  return (
    <fieldset className={styles.fieldset} data-testid={`class-${index}`}>
      <legend className={styles.legend}>Class {index + 1}</legend>
      <div className={styles.stack} style={{ gap: "var(--space-3)" }}>
        <div className={styles.grid}>
          <FieldFrame id={nameId} label="Name" problem={nameProblem}>
            <input id={nameId} className={styles.input} value={textOf(getPath(doc, [...base, "name"]))} onChange={(e) => apply(renameClass(doc, index, e.target.value))} data-testid={nameId} />
          </FieldFrame>
          {shared && share !== undefined && (
            <NumberField spec={{ ...share, label: "Share of the arrivals", unit: "fraction 0–1", required: true }} value={getPath(doc, [...base, "share"])} onChange={(v) => props.onSet([...base, "share"], v)} testId={`field-${pathKey([...base, "share"])}`} />
          )}
        </div>
        <ClassFields {...props} base={base} ownArrivals={!shared} />
        <SchemaFields specs={specs.filter((s) => !HAND_DRAWN.includes(s.name))} path={base} doc={doc} onSet={props.onSet} error={error} />
        <div>
          <Button variant="ghost" size="small" onClick={() => apply(removeClass(doc, index))} disabled={count <= 1} data-testid={`remove-class-${index}`}>
            Remove this class
          </Button>
        </div>
      </div>
    </fieldset>
  );
}

/** One class's arrivals (unless shared), pages and service time, under `base`. */
function ClassFields({ base, ownArrivals = true, ...props }: Props & { base: Path; ownArrivals?: boolean }) {
  const { schema, doc, onSet, error } = props;
  const suffix = pathKey(base) === "workload" ? "" : `-${pathKey(base)}`;
  const page = getPath(doc, [...base, "page"]);
  const hasPages = page !== undefined && page !== null;
  const pageSpecs = objectFields(schema, def(schema, "Page")).filter((s) => s.name === "push_fraction" || s.name === "early_hints");
  return (
    <>
      {ownArrivals && <ArrivalsFields {...props} path={[...base, "arrivals"]} />}
      <CheckField label="Pages with embedded objects (base request + objects)" checked={hasPages} onChange={(on) => onSet([...base, "page"], on ? STARTER_PAGE : undefined)} testId={`pages-toggle${suffix}`} />
      {hasPages && (
        <>
          <DistributionField {...props} path={[...base, "page", "objects"]} label="Objects per page" unit="objects" />
          <DistributionField {...props} path={[...base, "page", "gap_s"]} label="Client gap between object requests" unit="s" />
          <SchemaFields specs={pageSpecs.map((s) => (s.name === "push_fraction" ? { ...s, label: "Server push", unit: "fraction 0–1" } : s))} path={[...base, "page"]} doc={doc} onSet={onSet} error={error} />
        </>
      )}
      <DistributionField {...props} path={[...base, "service_s"]} label="Service time of one request on one core" unit="s" />
    </>
  );
}

function arrivalMode(arrivals: Json | undefined): "rate" | "profile" | "other" {
  if (getPath(arrivals, ["profile"]) !== undefined) return "profile";
  return getPath(arrivals, ["rate_per_s"]) !== undefined ? "rate" : "other";
}

function ArrivalsFields({ schema, doc, onSet, error, path }: Props & { path: Path }) {
  const arrivals = getPath(doc, path);
  const mode = arrivalMode(arrivals);
  const arrivalDef = def(schema, "Arrivals");
  const rateSpec = fieldSpec(schema, "rate_per_s", (arrivalDef.properties as Record<string, SchemaNode>).rate_per_s ?? {}, true);
  const choose = (next: string) => onSet(path, next === "rate" ? { rate_per_s: 1 } : { profile: [[0, 1]] });
  const profile = getPath(arrivals, ["profile"]);
  const dataset = getPath(arrivals, ["dataset"]);
  const other = dataset !== undefined ? `replay of dataset ${textOf(dataset)} (YAML)` : "recorded times (YAML)";
  const key = pathKey(path);
  const suffix = key === "workload.arrivals" ? "" : `-${key}`;
  return (
    <div className={styles.grid}>
      <SelectField
        label="Arrivals"
        value={mode}
        options={[{ value: "rate", label: "constant rate" }, { value: "profile", label: "rate profile (steps)" }, ...(mode === "other" ? [{ value: "other", label: other }] : [])]}
        onChange={choose}
        testId={`arrivals-mode${suffix}`}
      />
      {mode === "rate" && rateSpec !== null && (
        <NumberField spec={{ ...rateSpec, label: "Rate", unit: "pages or requests per s", required: true }} value={getPath(arrivals, ["rate_per_s"])} onChange={(v) => onSet([...path, "rate_per_s"], v)} serverProblem={error?.path === `${key}.rate_per_s` ? error.message : null} testId={`field-${key}.rate_per_s`} />
      )}
      {mode === "profile" && Array.isArray(profile) && (
        <div className={styles.wide} style={{ gridColumn: "1 / -1" }}>
          <TupleTable caption="Arrival rate profile: the last step holds to the end" columns={TUPLE_COLUMNS.profile ?? []} rows={profile as number[][]} onChange={(rows) => onSet([...path, "profile"], rows)} testId={`profile-table${suffix}`} />
        </div>
      )}
    </div>
  );
}
