/** Every field of a scenario as a form: hand-built for the workload, generated from the schema elsewhere. */
import { Card } from "../../components/Card";
import { CheckField, FieldFrame, NumberField, SelectField } from "./fields";
import { WorkloadSection } from "./WorkloadFields";
import { AdmissionSection } from "./AdmissionFields";
import { def, objectFields, starterValue, type SchemaNode } from "./schemaFields";
import { SchemaFields, type DocProps } from "./SchemaFields";
import { getPath, textOf, type Json } from "./scenarioDoc";
import styles from "./Simulations.module.css";

const POLICIES: Record<string, { def: string; label: string }> = {
  none: { def: "NoPolicy", label: "none (fixed size)" },
  threshold: { def: "ThresholdPolicy", label: "threshold (reactive)" },
  target_tracking: { def: "TargetTrackingPolicy", label: "target tracking (Kubernetes HPA)" },
  step: { def: "StepPolicy", label: "step scaling" },
  scheduled: { def: "ScheduledPolicy", label: "scheduled" },
  predictive: { def: "PredictivePolicy", label: "predictive (seasonal + reactive)" },
  latency_slo: { def: "LatencySloPolicy", label: "latency SLO" },
};

const DISPATCH = ["round_robin", "weighted_round_robin", "least_connections", "lru", "random"];

export function ScenarioForm({ schema, ...props }: DocProps & { schema: SchemaNode }) {
  return (
    <div className={styles.stack}>
      <GeneralSection schema={schema} {...props} />
      <WorkloadSection schema={schema} {...props} />
      <Card title="Cluster" subtitle="VMs, cores, discipline, boot time and price">
        <SchemaFields specs={objectFields(schema, def(schema, "Cluster"))} path={["cluster"]} {...props} />
      </Card>
      <DispatchSection schema={schema} {...props} />
      <AdmissionSection schema={schema} {...props} />
      <AutoscalingSection schema={schema} {...props} />
      <SlaSection schema={schema} {...props} />
    </div>
  );
}

function GeneralSection({ schema, doc, onSet, error }: DocProps & { schema: SchemaNode }) {
  const top = objectFields(schema, schema);
  const pick = (name: string) => top.find((s) => s.name === name);
  const duration = pick("duration_s");
  const seed = pick("seed");
  const nameId = "scenario-name";
  return (
    <Card title="Scenario">
      <div className={styles.grid}>
        <FieldFrame id={nameId} label="Name" problem={null}>
          <input id={nameId} className={styles.input} value={textOf(getPath(doc, ["name"]))} onChange={(e) => onSet(["name"], e.target.value)} />
        </FieldFrame>
        {duration !== undefined && (
          <NumberField spec={duration} value={getPath(doc, ["duration_s"])} onChange={(v) => onSet(["duration_s"], v)} serverProblem={error?.path === "duration_s" ? error.message : null} testId="field-duration_s" />
        )}
        {seed !== undefined && <NumberField spec={seed} value={getPath(doc, ["seed"])} onChange={(v) => onSet(["seed"], v)} />}
      </div>
    </Card>
  );
}

function DispatchSection({ schema, doc, onSet, error }: DocProps & { schema: SchemaNode }) {
  const value = getPath(doc, ["dispatch"]);
  const policy = typeof value === "string" ? value : textOf(getPath(value, ["policy"]), "least_connections");
  const others = objectFields(schema, def(schema, "Dispatch")).filter((s) => s.name !== "policy");
  const setPolicy = (p: string) => onSet(typeof value === "object" && value !== null ? ["dispatch", "policy"] : ["dispatch"], p);
  const setOther: DocProps["onSet"] = (path, v) => {
    const base: Json = typeof value === "object" && value !== null ? value : { policy };
    onSet(["dispatch"], base);
    onSet(path, v);
  };
  return (
    <Card title="Dispatch" subtitle="How the front end picks a VM for each page (or request)">
      <div className={styles.grid}>
        <SelectField label="Policy" value={policy} options={DISPATCH.map((d) => ({ value: d, label: d.replace(/_/g, " ") }))} onChange={setPolicy} />
      </div>
      <SchemaFields specs={others} path={["dispatch"]} doc={doc} onSet={setOther} error={error} />
    </Card>
  );
}

function AutoscalingSection({ schema, doc, onSet, error }: DocProps & { schema: SchemaNode }) {
  const policy = textOf(getPath(doc, ["autoscaling", "policy"]), "none");
  const entry = POLICIES[policy] ?? POLICIES.none;
  const specs = entry === undefined ? [] : objectFields(schema, def(schema, entry.def));
  return (
    <Card title="Autoscaling" subtitle="The policy and its parameters; booting VMs count as allocated, not active">
      <div className={styles.grid}>
        <SelectField
          label="Policy"
          value={policy}
          options={Object.entries(POLICIES).map(([value, p]) => ({ value, label: p.label }))}
          onChange={(p) => onSet(["autoscaling"], { policy: p, ...(p === "scheduled" ? { schedule: [[0, 1]] } : {}) })}
          testId="autoscaling-policy"
        />
      </div>
      <SchemaFields specs={specs} path={["autoscaling"]} doc={doc} onSet={onSet} error={error} />
    </Card>
  );
}

function SlaSection({ schema, doc, onSet, error }: DocProps & { schema: SchemaNode }) {
  const sla = getPath(doc, ["sla"]);
  const on = sla !== undefined && sla !== null;
  const specs = objectFields(schema, def(schema, "Sla"));
  const starter = Object.fromEntries(specs.filter((s) => s.required).map((s) => [s.name, starterValue(s)]));
  return (
    <Card title="SLA" subtitle="A window is violated when more than (100 − percentile)% of its latencies (PLTs with pages) exceed the threshold">
      <CheckField label="Check an SLA" checked={on} onChange={(v) => onSet(["sla"], v ? { percentile: 95, ...starter } : undefined)} testId="sla-toggle" />
      {on && <SchemaFields specs={specs} path={["sla"]} doc={doc} onSet={onSet} error={error} />}
    </Card>
  );
}
