/** Multi-tier clusters (`cluster.tiers`, docs/methods/concurrency.md): switching a scenario to tiers and back,
 * adding, removing, moving and renaming tiers, keeping `autoscaling.tier` pointing at a tier. */
import { getPath, setPath, textOf, type Json, type Scenario } from "../scenarioDoc";

type Obj = { [key: string]: Json };

const isObj = (v: Json | undefined): v is Obj => v !== null && v !== undefined && typeof v === "object" && !Array.isArray(v);

/** The tiers of the scenario, or null for a single pool of VMs. */
export function tiersOf(doc: Scenario): Obj[] | null {
  const tiers = getPath(doc, ["cluster", "tiers"]);
  return Array.isArray(tiers) ? tiers.filter(isObj) : null;
}

export function tierNames(doc: Scenario): string[] {
  return (tiersOf(doc) ?? []).map((t) => textOf(t.name));
}

/** The tier the autoscaling policy resizes: `autoscaling.tier`, else the first with vms.min < vms.max (tiers.py). */
export function scaledTierName(doc: Scenario): string | null {
  const tiers = tiersOf(doc);
  if (tiers === null || tiers.length === 0) return null;
  const named = getPath(doc, ["autoscaling", "tier"]);
  if (typeof named === "string") return named;
  const scalable = tiers.find((t) => {
    const min = getPath(t, ["vms", "min"]);
    const max = getPath(t, ["vms", "max"]);
    return (typeof min === "number" ? min : 1) < (typeof max === "number" ? max : 1);
  });
  return textOf((scalable ?? tiers[0])?.name);
}

/** A name not taken yet: "tier3", "tier4", ... */
function freshName(taken: string[]): string {
  let n = taken.length + 1;
  while (taken.includes(`tier${n}`)) n += 1;
  return `tier${n}`;
}

const POOL_FIELDS = ["vms", "cores", "speed", "discipline", "boot_s", "pool_limit", "accept_queue", "overhead", "price_per_vm_hour"];

/** Tiers replace the single pool: it becomes the front tier "app" (same VMs, cores, pool), with a
 * one-VM "db" tier behind it. Tiers dispatch by least connections and take no admission stage. */
export function toTiers(doc: Scenario): Scenario {
  const cluster = getPath(doc, ["cluster"]);
  const front: Obj = { name: "app" };
  for (const key of POOL_FIELDS) {
    const value = isObj(cluster) ? cluster[key] : undefined;
    if (value !== undefined) front[key] = value;
  }
  const db: Obj = { name: "db", vms: { min: 1, max: 1, start: 1 }, cores: 4, service_s: { dist: "exponential", mean: 0.01 } };
  let next = setPath(doc, ["cluster"], { tiers: [front, db] });
  const dispatch = getPath(doc, ["dispatch"]);
  if (dispatch !== undefined && textOf(getPath(dispatch, ["policy"]), textOf(dispatch)) !== "least_connections") next = setPath(next, ["dispatch"], "least_connections");
  if (textOf(getPath(doc, ["admission", "policy"]), "none") !== "none") next = setPath(next, ["admission"], undefined);
  return next;
}

const TIER_ONLY = ["sct_interval_s", "sct_window_s", "sct_min_intervals", "tier"];

/** Back to one pool of VMs: the scaled tier's VM fields; a tier-only policy falls back to threshold. */
export function toSinglePool(doc: Scenario): Scenario {
  const tiers = tiersOf(doc) ?? [];
  const scaled = tiers.find((t) => textOf(t.name) === scaledTierName(doc)) ?? tiers[0] ?? {};
  const cluster = Object.fromEntries(Object.entries(scaled).filter(([k]) => POOL_FIELDS.includes(k)));
  let next = setPath(doc, ["cluster"], cluster);
  if (textOf(getPath(doc, ["autoscaling", "policy"])) === "concurrency_aware") {
    const rest = Object.entries(getPath(doc, ["autoscaling"]) as Obj).filter(([k]) => !TIER_ONLY.includes(k));
    next = setPath(next, ["autoscaling"], { ...Object.fromEntries(rest), policy: "threshold" });
  } else if (getPath(doc, ["autoscaling", "tier"]) !== undefined) {
    next = setPath(next, ["autoscaling", "tier"], undefined);
  }
  return next;
}

export function addTier(doc: Scenario): Scenario {
  const tiers = tiersOf(doc) ?? [];
  return setPath(doc, ["cluster", "tiers"], [...tiers, { name: freshName(tierNames(doc)), vms: { min: 1, max: 1, start: 1 } }]);
}

export function removeTier(doc: Scenario, index: number): Scenario {
  const tiers = tiersOf(doc) ?? [];
  const gone = textOf(tiers[index]?.name);
  const next = setPath(doc, ["cluster", "tiers"], tiers.filter((_, i) => i !== index));
  return getPath(doc, ["autoscaling", "tier"]) === gone ? setPath(next, ["autoscaling", "tier"], undefined) : next;
}

/** Swap tier `index` with its neighbour (`by` = -1 up, +1 down): requests visit tiers in list order. */
export function moveTier(doc: Scenario, index: number, by: -1 | 1): Scenario {
  const tiers = (tiersOf(doc) ?? []).slice();
  const other = index + by;
  const a = tiers[index];
  const b = tiers[other];
  if (a === undefined || b === undefined) return doc;
  tiers[index] = b;
  tiers[other] = a;
  return setPath(doc, ["cluster", "tiers"], tiers);
}

/** Rename a tier, and `autoscaling.tier` with it. */
export function renameTier(doc: Scenario, index: number, name: string): Scenario {
  const old = textOf(getPath(doc, ["cluster", "tiers", index, "name"]));
  const next = setPath(doc, ["cluster", "tiers", index, "name"], name);
  return getPath(doc, ["autoscaling", "tier"]) === old ? setPath(next, ["autoscaling", "tier"], name) : next;
}
