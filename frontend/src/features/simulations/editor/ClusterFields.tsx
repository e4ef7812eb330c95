/** The cluster: one pool of VMs, or tiers (web → app → db, docs/methods/concurrency.md), each a pool with its
 * own VMs, cores, pool limit, overhead and service time; every field from the schema, with units. */
import { Button } from "../../../components/Button";
import { Card } from "../../../components/Card";
import { DistributionField } from "./DistributionField";
import { CheckField, FieldFrame, SelectField } from "./fields";
import { getPath, pathKey, textOf, type Path } from "../scenarioDoc";
import { SchemaFields, type DocProps } from "./SchemaFields";
import { def, objectFields, type SchemaNode } from "./fieldSpecs";
import { addTier, moveTier, removeTier, renameTier, tiersOf, toSinglePool, toTiers } from "./tiers";
import styles from "../Simulations.module.css";

type Props = DocProps & { schema: SchemaNode };

const STARTER_SERVICE = { dist: "exponential", mean: 0.01 };

export function ClusterSection(props: Props) {
  const { schema, doc, onSet, error } = props;
  const tiers = tiersOf(doc);
  const replace = (next: typeof doc) => {
    for (const key of ["cluster", "dispatch", "admission", "autoscaling"]) {
      if (next[key] !== doc[key]) onSet([key], next[key]);
    }
  };
  const layout = (
    <SelectField
      label="Layout"
      value={tiers === null ? "single" : "tiers"}
      options={[
        { value: "single", label: "one pool of VMs" },
        { value: "tiers", label: "tiers (web → app → db)" },
      ]}
      onChange={(v) => replace(v === "tiers" ? toTiers(doc) : toSinglePool(doc))}
      testId="cluster-layout"
    />
  );
  if (tiers === null) {
    const specs = objectFields(schema, def(schema, "Cluster")).filter((s) => s.name !== "tiers");
    return (
      <Card title="Cluster" subtitle="VMs, cores, discipline, boot time and price">
        <div className={styles.stack} style={{ gap: "var(--space-3)" }}>
          <div className={styles.grid}>{layout}</div>
          <SchemaFields specs={specs} path={["cluster"]} doc={doc} onSet={onSet} error={error} />
        </div>
      </Card>
    );
  }
  const problem = error !== null && (error.path === "cluster" || error.path === "cluster.tiers") ? error.message : null;
  return (
    <Card testId="cluster-card" title="Cluster" subtitle={`${tiers.length} tiers: ${tiers.map((t) => textOf(t.name, "?")).join(" → ")}. A request visits every tier in this order; a tier's pool limit caps the requests it sends below.`}>
      <div className={styles.stack} style={{ gap: "var(--space-3)" }}>
        <div className={styles.grid}>{layout}</div>
        {problem !== null && (
          <p className={styles.problem} role="alert">
            {problem}
          </p>
        )}
        {tiers.map((_, index) => (
          <TierCard key={index} {...props} index={index} count={tiers.length} replace={replace} />
        ))}
        <div>
          <Button variant="secondary" onClick={() => replace(addTier(doc))} disabled={tiers.length >= 8} data-testid="add-tier">
            Add a tier
          </Button>
        </div>
      </div>
    </Card>
  );
}

function TierCard({ index, count, replace, ...props }: Props & { index: number; count: number; replace: (next: DocProps["doc"]) => void }) {
  const { schema, doc, onSet, error } = props;
  const base: Path = ["cluster", "tiers", index];
  const specs = objectFields(schema, def(schema, "Tier"));
  const name = textOf(getPath(doc, [...base, "name"]));
  const nameId = `tier-name-${index}`;
  const nameProblem = name.trim() === "" ? "required" : error !== null && error.path === pathKey([...base, "name"]) ? error.message : null;
  const service = getPath(doc, [...base, "service_s"]);
  const ownService = service !== undefined && service !== null;
  return (
    <fieldset className={styles.fieldset} data-testid={`tier-${index}`}>
      <legend className={styles.legend}>
        Tier {index + 1}: {name === "" ? "unnamed" : name}
      </legend>
      <div className={styles.stack} style={{ gap: "var(--space-3)" }}>
        <div className={styles.grid}>
          <FieldFrame id={nameId} label="Name" problem={nameProblem}>
            <input id={nameId} className={styles.input} value={name} onChange={(e) => replace(renameTier(doc, index, e.target.value))} data-testid={nameId} aria-invalid={nameProblem !== null} />
          </FieldFrame>
        </div>
        <SchemaFields specs={specs} path={base} doc={doc} onSet={onSet} error={error} />
        <CheckField label="Its own service time (else the request class's)" checked={ownService} onChange={(on) => onSet([...base, "service_s"], on ? STARTER_SERVICE : undefined)} testId={`tier-service-toggle-${index}`} />
        {ownService && <DistributionField schema={schema} path={[...base, "service_s"]} label={`Service time of one request at ${name === "" ? "this tier" : name}, on one core`} unit="s" doc={doc} onSet={onSet} error={error} />}
        <div className={styles.row}>
          <Button variant="ghost" size="small" onClick={() => replace(moveTier(doc, index, -1))} disabled={index === 0} aria-label={`Move tier ${index + 1} up`}>
            Move up
          </Button>
          <Button variant="ghost" size="small" onClick={() => replace(moveTier(doc, index, 1))} disabled={index === count - 1} aria-label={`Move tier ${index + 1} down`}>
            Move down
          </Button>
          <Button variant="ghost" size="small" onClick={() => replace(removeTier(doc, index))} disabled={count <= 1} data-testid={`remove-tier-${index}`}>
            Remove this tier
          </Button>
        </div>
      </div>
    </fieldset>
  );
}
