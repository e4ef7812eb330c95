/** The scenario's admission stage: none, the class policies (SwitchAdm, StaticPart, DynamicPart) or
 * the virtual queue of docs/methods/admission.md, with their fields. */
import { Card } from "../../../components/Card";
import { NumberField, SelectField } from "./fields";
import { def, objectFields, type FieldSpec, type SchemaNode } from "./fieldSpecs";
import { SchemaFields, type DocProps } from "./SchemaFields";
import { getPath, textOf, type Json } from "../scenarioDoc";
import styles from "../Simulations.module.css";

const ADMISSION_POLICIES: Record<string, { def: string | null; label: string }> = {
  none: { def: null, label: "none (admit all)" },
  switch_adm: { def: "PartitionAdmission", label: "SwitchAdm" },
  static_part: { def: "PartitionAdmission", label: "StaticPart" },
  dynamic_part: { def: "PartitionAdmission", label: "DynamicPart" },
  virtual_queue: { def: "VirtualQueueAdmission", label: "virtual queue" },
};

/** Labels and units the schema cannot give (the names of docs/methods/admission.md). */
const FIELD_TEXT: Record<string, { label: string; unit: string }> = {
  maxconn_sla: { label: "MaxConn_D(T_D)", unit: "dynamic connections per server within the SLA" },
  maxconn: { label: "MaxConn_D", unit: "dynamic connections per server, most sustainable" },
  maxconn_static_sla: { label: "MaxConn_S(T_S)", unit: "static connections per server; blank: no limit" },
  period_s: { label: "Control period", unit: "s" },
  max_wait_s: { label: "Maximum wait", unit: "s" },
  epoch_s: { label: "Discovery epoch", unit: "s" },
  c0: { label: "First probed rate c0", unit: "req/s" },
  alpha: { label: "Coarse growth α", unit: "×" },
  beta: { label: "Back-off β", unit: "0–1" },
  delta: { label: "Fine step δ", unit: "of the overshoot rate" },
  n_f: { label: "Confirming epochs N_f", unit: "epochs" },
  n_s: { label: "Stable epochs N_s", unit: "epochs" },
  epsilon: { label: "Goodput tolerance ε", unit: "0–1" },
};

const DISCOVERY = new Set(["epoch_s", "c0", "alpha", "beta", "delta", "n_f", "n_s", "epsilon"]);

const labelled = (s: FieldSpec): FieldSpec => ({ ...s, ...(FIELD_TEXT[s.name] ?? {}) });

/** The starter block of a policy: what the schema requires, at the worked example of
 * docs/methods/admission.md where it has none. */
function starterAdmission(policy: string): Json {
  if (policy === "none") return { policy };
  if (policy === "virtual_queue") return { policy, capacity: "discover" };
  return { policy, maxconn_sla: 18, maxconn: 26, period_s: 10 };
}

export function AdmissionSection({ schema, doc, onSet, error }: DocProps & { schema: SchemaNode }) {
  const policy = textOf(getPath(doc, ["admission", "policy"]), "none");
  const entry = ADMISSION_POLICIES[policy] ?? ADMISSION_POLICIES.none;
  const specs = entry?.def == null ? [] : objectFields(schema, def(schema, entry.def)).filter((s) => !["policy", "capacity", "hardness"].includes(s.name));
  const props = { doc, onSet, error };
  return (
    <Card title="Admission" subtitle="A stage in front of the dispatcher: SwitchAdm, StaticPart and DynamicPart protect top users; the virtual queue tells users when to come back">
      <div className={styles.grid}>
        <SelectField
          label="Policy"
          value={policy}
          options={Object.entries(ADMISSION_POLICIES).map(([value, p]) => ({ value, label: p.label }))}
          onChange={(p) => onSet(["admission"], starterAdmission(p))}
          problem={error?.path === "admission" || error?.path === "admission.policy" ? error.message : null}
          testId="admission-policy"
        />
      </div>
      {policy === "virtual_queue" ? (
        <>
          <CapacityField {...props} />
          <SchemaFields specs={specs.filter((s) => !DISCOVERY.has(s.name)).map(labelled)} path={["admission"]} {...props} />
          {getPath(doc, ["admission", "capacity"]) === "discover" && (
            <fieldset className={styles.fieldset}>
              <legend className={styles.legend}>Capacity discovery</legend>
              <SchemaFields specs={specs.filter((s) => DISCOVERY.has(s.name)).map(labelled)} path={["admission"]} {...props} />
            </fieldset>
          )}
          <HardnessFields schema={schema} {...props} />
        </>
      ) : (
        <SchemaFields specs={specs.map(labelled)} path={["admission"]} {...props} />
      )}
    </Card>
  );
}

const CAPACITY_SPEC: FieldSpec = { name: "capacity", label: "Capacity", unit: "req/s", kind: "number", options: [], min: 0, exclusiveMin: true, nullable: false, required: true, defaultValue: undefined, children: [] };

function CapacityField({ doc, onSet, error }: DocProps) {
  const capacity = getPath(doc, ["admission", "capacity"]);
  const fixed = typeof capacity === "number";
  return (
    <div className={styles.grid}>
      <SelectField
        label="Capacity"
        value={fixed ? "fixed" : "discover"}
        options={[
          { value: "discover", label: "discover online" },
          { value: "fixed", label: "fixed rate" },
        ]}
        onChange={(v) => onSet(["admission", "capacity"], v === "fixed" ? 100 : "discover")}
        testId="admission-capacity-mode"
      />
      {fixed && (
        <NumberField spec={CAPACITY_SPEC} value={capacity} onChange={(v) => onSet(["admission", "capacity"], v ?? "discover")} serverProblem={error?.path === "admission.capacity" ? error.message : null} testId="field-admission.capacity" />
      )}
    </div>
  );
}

const HARDNESS_SPEC: FieldSpec = { name: "hardness", label: "", unit: "units of capacity", kind: "number", options: [], min: 0, exclusiveMin: true, nullable: true, required: false, defaultValue: 1, children: [] };

/** Per class: the units of capacity one of its requests consumes (1 unless set). */
function HardnessFields({ doc, onSet, error }: DocProps & { schema: SchemaNode }) {
  const classes = getPath(doc, ["workload", "classes"]);
  if (!Array.isArray(classes) || classes.length < 2) return null;
  const names = classes.map((c) => textOf(getPath(c, ["name"]), "?"));
  const problem = error !== null && error.path.startsWith("admission.hardness") ? error.message : null;
  return (
    <fieldset className={styles.fieldset}>
      <legend className={styles.legend}>Request hardness per class</legend>
      <div className={styles.grid}>
        {names.map((name) => (
          <NumberField
            key={name}
            spec={{ ...HARDNESS_SPEC, label: name }}
            value={getPath(doc, ["admission", "hardness", name])}
            onChange={(v) => onSet(["admission", "hardness", name], v)}
            serverProblem={problem}
            testId={`field-admission.hardness.${name}`}
          />
        ))}
      </div>
    </fieldset>
  );
}
