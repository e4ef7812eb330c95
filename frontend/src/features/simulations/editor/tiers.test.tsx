/// <reference types="node" />
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fireEvent, render, screen, within } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { ClusterSection } from "./ClusterFields";
import { ScenarioForm } from "./ScenarioForm";
import { SCENARIO_SCHEMA } from "./scenarioSchema.fixture";
import { getPath, parseYaml, setPath, toYaml, type Scenario } from "../scenarioDoc";
import { def, fieldSpec, type SchemaNode } from "./fieldSpecs";
import { addTier, moveTier, removeTier, renameTier, scaledTierName, tierNames, tiersOf, toSinglePool, toTiers } from "./tiers";

// vitest runs in frontend/; the document users load from the repository's data folder
const parsed = parseYaml(readFileSync(resolve(process.cwd(), "../data/profiles/three_tier_big_spike.yaml"), "utf8"));
if (!parsed.ok) throw new Error(parsed.message);
const THREE_TIERS: Scenario = parsed.doc;

const single: Scenario = {
  name: "s",
  duration_s: 60,
  workload: { arrivals: { rate_per_s: 10 }, service_s: { dist: "exponential", mean: 0.01 } },
  cluster: { vms: { min: 1, max: 8, start: 2 }, cores: 2, pool_limit: 20 },
  dispatch: "round_robin",
  admission: { policy: "virtual_queue", capacity: "discover" },
  autoscaling: { policy: "threshold", upper: 0.7 },
};

/** The form bound to a document kept in state, as the editor does, with its YAML shown. */
function Editor({ initial, part = "cluster" }: { initial: Scenario; part?: "cluster" | "all" }) {
  const [doc, setDoc] = useState(initial);
  const onSet = (path: (string | number)[], value: Parameters<typeof setPath>[2]) => setDoc((d) => setPath(d, path, value));
  return (
    <>
      {part === "cluster" ? <ClusterSection schema={SCENARIO_SCHEMA} doc={doc} onSet={onSet} error={null} /> : <ScenarioForm schema={SCENARIO_SCHEMA} doc={doc} onSet={onSet} error={null} />}
      <pre data-testid="yaml">{toYaml(doc)}</pre>
    </>
  );
}

const yamlDoc = (): Scenario => {
  const p = parseYaml(screen.getByTestId("yaml").textContent);
  if (!p.ok) throw new Error(p.message);
  return p.doc;
};

describe("multi-tier documents", () => {
  it("turns one pool into an app tier with a db tier behind it, least connections, no admission", () => {
    const tiered = toTiers(single);
    expect(tiersOf(tiered)?.map((t) => t.name)).toEqual(["app", "db"]);
    expect(getPath(tiered, ["cluster", "tiers", 0])).toEqual({ name: "app", vms: { min: 1, max: 8, start: 2 }, cores: 2, pool_limit: 20 });
    expect(getPath(tiered, ["cluster", "vms"])).toBeUndefined(); // with tiers, VM fields are per tier
    expect(tiered.dispatch).toBe("least_connections");
    expect(tiered).not.toHaveProperty("admission");
    expect(getPath(toSinglePool(tiered), ["cluster"])).toEqual(single.cluster);
  });

  it("finds the scaled tier as the engine does: autoscaling.tier, else the first with min < max", () => {
    expect(scaledTierName(THREE_TIERS)).toBe("app");
    const unnamed = setPath(THREE_TIERS, ["autoscaling", "tier"], undefined);
    expect(scaledTierName(unnamed)).toBe("app"); // web is fixed at 2, app scales 1..8
    expect(scaledTierName(single)).toBeNull();
  });

  it("keeps autoscaling.tier on a renamed tier and drops it with a removed one", () => {
    const renamed = renameTier(THREE_TIERS, 1, "api");
    expect(tierNames(renamed)).toEqual(["web", "api", "db"]);
    expect(getPath(renamed, ["autoscaling", "tier"])).toBe("api");
    const removed = removeTier(renamed, 1);
    expect(tierNames(removed)).toEqual(["web", "db"]);
    expect(getPath(removed, ["autoscaling", "tier"])).toBeUndefined();
  });

  it("adds a tier under a fresh name and moves tiers within bounds", () => {
    expect(tierNames(addTier(THREE_TIERS))).toEqual(["web", "app", "db", "tier4"]);
    expect(tierNames(moveTier(THREE_TIERS, 2, -1))).toEqual(["web", "db", "app"]);
    expect(moveTier(THREE_TIERS, 0, -1)).toBe(THREE_TIERS);
  });

  it("leaves concurrency-aware scaling (a tier-only policy) for threshold on one pool", () => {
    const back = toSinglePool(THREE_TIERS);
    expect(back.autoscaling).toEqual({
      policy: "threshold",
      lower: 0.4,
      upper: 0.75,
      time_steps: 1,
      step_size: "band_middle",
      step_s: 10,
      cooldown_s: 20,
    });
    expect(getPath(back, ["cluster", "vms"])).toEqual({ min: 1, max: 8, start: 2 });
    expect(getPath(back, ["cluster", "pool_limit"])).toBe(10);
  });
});

describe("the schema's list of tiers", () => {
  it("is a list of objects whose items have every tier field, with units and bounds", () => {
    const schema = SCENARIO_SCHEMA as SchemaNode;
    const tiers = fieldSpec(schema, "tiers", ((def(schema, "Cluster").properties ?? {}) as Record<string, SchemaNode>).tiers ?? {}, false);
    expect(tiers?.kind).toBe("objects");
    expect(tiers?.max).toBe(8);
    const children = tiers?.children ?? [];
    expect(children.map((c) => c.name)).toEqual(["vms", "cores", "speed", "discipline", "boot_s", "pool_limit", "accept_queue", "overhead", "price_per_vm_hour"]);
    const pool = children.find((c) => c.name === "pool_limit");
    expect(pool).toMatchObject({ unit: "requests", blank: "unbounded", min: 1, kind: "integer" });
    const overhead = children.find((c) => c.name === "overhead");
    expect(overhead?.children.map((c) => [c.name, c.unit])).toEqual([
      ["q_upper", "requests"],
      ["factor", "× per request"],
    ]);
  });
});

describe("the tiers in the scenario form", () => {
  it("shows three_tier_big_spike.yaml's tiers with their fields, and edits reach the YAML", () => {
    render(<Editor initial={THREE_TIERS} />);
    expect(screen.getByTestId("cluster-layout")).toHaveValue("tiers");
    const db = screen.getByTestId("tier-2");
    expect(within(db).getByText("Tier 3: db")).toBeInTheDocument();
    expect(within(db).getByTestId("field-cluster.tiers.2.cores")).toHaveValue("15");
    expect(within(db).getByTestId("field-cluster.tiers.2.overhead.q_upper")).toHaveValue("20");
    expect(within(db).getByTestId("field-cluster.tiers.2.overhead.factor")).toHaveValue("0.9925");
    expect(within(db).getByTestId("field-cluster.tiers.2.service_s.mean")).toHaveValue("0.03");
    const app = screen.getByTestId("tier-1");
    expect(within(app).getByTestId("field-cluster.tiers.1.pool_limit")).toHaveValue("10");
    expect(within(app).getByTestId("field-cluster.tiers.1.vms.max")).toHaveValue("8");
    expect(within(screen.getByTestId("tier-0")).getByTestId("field-cluster.tiers.0.pool_limit")).toHaveAttribute("placeholder", "unbounded");

    fireEvent.change(within(app).getByTestId("field-cluster.tiers.1.pool_limit"), { target: { value: "25" } });
    fireEvent.change(within(db).getByTestId("field-cluster.tiers.2.overhead.q_upper"), { target: { value: "0" } });
    expect(within(db).getByText("must be ≥ 1")).toBeInTheDocument();
    fireEvent.change(screen.getByTestId("tier-name-1"), { target: { value: "api" } });
    const doc = yamlDoc();
    expect(getPath(doc, ["cluster", "tiers", 1])).toMatchObject({ name: "api", pool_limit: 25 });
    expect(getPath(doc, ["autoscaling", "tier"])).toBe("api");
  });

  it("adds, removes and switches back to one pool", () => {
    render(<Editor initial={THREE_TIERS} />);
    fireEvent.click(screen.getByTestId("add-tier"));
    expect(tierNames(yamlDoc())).toEqual(["web", "app", "db", "tier4"]);
    fireEvent.click(screen.getByTestId("remove-tier-0"));
    expect(tierNames(yamlDoc())).toEqual(["app", "db", "tier4"]);
    fireEvent.click(screen.getByTestId("tier-service-toggle-2"));
    expect(getPath(yamlDoc(), ["cluster", "tiers", 2, "service_s"])).toEqual({ dist: "exponential", mean: 0.01 });
    fireEvent.change(screen.getByTestId("cluster-layout"), { target: { value: "single" } });
    expect(tiersOf(yamlDoc())).toBeNull();
    expect(screen.queryByTestId("tier-0")).toBeNull();
    expect(screen.getByTestId("field-cluster.vms.max")).toHaveValue("8");
  });

  it("offers the concurrency-aware policy with its scaled tier and SCT fields", () => {
    render(<Editor initial={THREE_TIERS} part="all" />);
    expect(screen.getByTestId("autoscaling-policy")).toHaveValue("concurrency_aware");
    expect(screen.getByTestId("autoscaling-tier")).toHaveValue("app");
    const sct = screen.getByTestId("sct-fields");
    expect(within(sct).getByTestId("field-autoscaling.sct_interval_s")).toHaveValue("0.5");
    expect(within(sct).getByTestId("field-autoscaling.sct_window_s")).toHaveValue("180");
    expect(within(sct).getByText("Intervals per concurrency level")).toBeInTheDocument();
    fireEvent.change(screen.getByTestId("autoscaling-tier"), { target: { value: "web" } });
    expect(getPath(yamlDoc(), ["autoscaling", "tier"])).toBe("web");
    fireEvent.change(screen.getByTestId("autoscaling-policy"), { target: { value: "threshold" } });
    expect(yamlDoc().autoscaling).toEqual({ policy: "threshold", tier: "web" });
    expect(screen.queryByTestId("sct-fields")).toBeNull();
    // tiers dispatch by least connections, without an admission stage: no choices to offer
    expect(screen.getByTestId("tiers-dispatch")).toHaveTextContent("least connections");
    expect(screen.queryByTestId("admission-policy")).toBeNull();
  });

  it("says concurrency-aware scaling needs tiers on a single pool", () => {
    render(<Editor initial={{ ...single, autoscaling: { policy: "concurrency_aware" } }} part="all" />);
    expect(screen.getByText("needs a cluster with tiers (Cluster → Layout)")).toBeInTheDocument();
    expect(screen.queryByTestId("autoscaling-tier")).toBeNull();
  });
});
