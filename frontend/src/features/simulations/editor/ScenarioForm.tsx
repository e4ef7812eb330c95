/** Every field of a scenario as a form: hand-built for the workload, generated from the schema elsewhere. */
import { Card } from "../../../components/Card";
import { CheckField, FieldFrame, NumberField, SelectField } from "./fields";
import { WorkloadSection } from "./WorkloadFields";
import { AdmissionSection } from "./AdmissionFields";
import { ClusterSection } from "./ClusterFields";
import { scaledTierName, tierNames } from "./tiers";
import { def, objectFields, starterValue, type SchemaNode } from "./fieldSpecs";
import { SchemaFields, type DocProps } from "./SchemaFields";
import { getPath, textOf, type Json } from "../scenarioDoc";
import styles from "../Simulations.module.css";

const POLICIES: Record<string, { def: string; label: string }> = {
  none: { def: "NoPolicy", label: "none (fixed size)" },
  threshold: { def: "ThresholdPolicy", label: "threshold (reactive)" },
  target_tracking: { def: "TargetTrackingPolicy", label: "target tracking (Kubernetes HPA)" },
  step: { def: "StepPolicy", label: "step scaling" },
  scheduled: { def: "ScheduledPolicy", label: "scheduled" },
  predictive: { def: "PredictivePolicy", label: "predictive (seasonal + reactive)" },
  latency_slo: { def: "LatencySloPolicy", label: "latency SLO" },
  concurrency_aware: { def: "ConcurrencyAwarePolicy", label: "concurrency-aware (tiers)" },
};

/** docs/methods/concurrency.md's SCT settings, shown apart from the threshold ones. */
/** Policies with a `tier` field (the others resize the default tier). */
const TIER_POLICIES = ["threshold", "predictive", "concurrency_aware"];

const SCT_FIELDS = ["sct_interval_s", "sct_window_s", "sct_min_intervals"];

const DISPATCH = ["round_robin", "weighted_round_robin", "least_connections", "lru", "random"];

export function ScenarioForm({ schema, ...props }: DocProps & { schema: SchemaNode }) {
  return (
    <div className={styles.stack}>
      <GeneralSection schema={schema} {...props} />
      <WorkloadSection schema={schema} {...props} />
      <ClusterSection schema={schema} {...props} />
      {tierNames(props.doc).length > 0 ? (
        <Card title="Dispatch and admission" testId="tiers-dispatch">
          <p className={styles.muted}>Within each tier, a request goes to the active VM holding the fewest (least connections); admission stages do not run in front of tiers.</p>
        </Card>
      ) : (
        <>
          <DispatchSection schema={schema} {...props} />
          <AdmissionSection schema={schema} {...props} />
        </>
      )}
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
  const node = entry === undefined ? {} : def(schema, entry.def);
  const specs = objectFields(schema, node);
  const names = tierNames(doc);
  const tiered = names.length > 0;
  const hasTier = tiered && ((node.properties ?? {}) as Record<string, unknown>).tier !== undefined;
  const choose = (p: string) => {
    const tier = getPath(doc, ["autoscaling", "tier"]);
    const next: Record<string, Json> = { policy: p };
    if (p === "scheduled") next.schedule = [[0, 1]];
    if (typeof tier === "string" && TIER_POLICIES.includes(p)) next.tier = tier;
    onSet(["autoscaling"], next);
  };
  const needsTiers = policy === "concurrency_aware" && !tiered;
  const problem = error?.path === "autoscaling" || error?.path === "autoscaling.policy" ? error.message : needsTiers ? "needs a cluster with tiers (Cluster → Layout)" : null;
  return (
    <Card title="Autoscaling" subtitle={tiered ? `The policy resizes one tier (${scaledTierName(doc) ?? "?"}); the others keep their starting VMs` : "The policy and its parameters; booting VMs count as allocated, not active"}>
      <div className={styles.grid}>
        <SelectField label="Policy" value={policy} options={Object.entries(POLICIES).map(([value, p]) => ({ value, label: p.label }))} onChange={choose} problem={problem} testId="autoscaling-policy" />
        {hasTier && (
          <SelectField
            label="Scaled tier"
            value={textOf(getPath(doc, ["autoscaling", "tier"]))}
            options={[{ value: "", label: `default (${scaledTierName({ ...doc, autoscaling: { policy } }) ?? "?"}: first with min < max)` }, ...names.map((n) => ({ value: n, label: n }))]}
            onChange={(v) => onSet(["autoscaling", "tier"], v === "" ? undefined : v)}
            problem={error?.path === "autoscaling.tier" ? error.message : null}
            testId="autoscaling-tier"
          />
        )}
      </div>
      <SchemaFields specs={specs.filter((s) => !SCT_FIELDS.includes(s.name))} path={["autoscaling"]} doc={doc} onSet={onSet} error={error} />
      {policy === "concurrency_aware" && (
        <fieldset className={styles.fieldset} data-testid="sct-fields">
          <legend className={styles.legend}>After each scaling action: SCT on the tiers below, pool limit set to Q_lower</legend>
          <SchemaFields specs={specs.filter((s) => SCT_FIELDS.includes(s.name))} path={["autoscaling"]} doc={doc} onSet={onSet} error={error} />
        </fieldset>
      )}
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
