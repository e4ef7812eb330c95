import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { AdmissionSection } from "./AdmissionFields";
import type { Scenario } from "../scenarioDoc";

/** The admission part of the published scenario schema (GET /simulations/schema, descriptions left out). */
const SCHEMA = {"$defs": {"PartitionAdmission": {"additionalProperties": false, "properties": {"policy": {"enum": ["switch_adm", "static_part", "dynamic_part"], "title": "Policy", "type": "string"}, "maxconn_sla": {"minimum": 1, "title": "Maxconn Sla", "type": "integer"}, "maxconn": {"minimum": 1, "title": "Maxconn", "type": "integer"}, "maxconn_static_sla": {"anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}], "default": null, "title": "Maxconn Static Sla"}, "period_s": {"default": 10.0, "exclusiveMinimum": 0, "title": "Period S", "type": "number"}}, "required": ["policy", "maxconn_sla", "maxconn"], "title": "PartitionAdmission", "type": "object"}, "VirtualQueueAdmission": {"additionalProperties": false, "properties": {"policy": {"const": "virtual_queue", "title": "Policy", "type": "string"}, "capacity": {"anyOf": [{"const": "discover", "type": "string"}, {"exclusiveMinimum": 0, "type": "number"}], "default": "discover", "title": "Capacity"}, "max_wait_s": {"default": 3600, "maximum": 86400, "minimum": 1, "title": "Max Wait S", "type": "integer"}, "epoch_s": {"default": 8.0, "exclusiveMinimum": 0, "title": "Epoch S", "type": "number"}, "c0": {"default": 15.0, "exclusiveMinimum": 0, "title": "C0", "type": "number"}, "alpha": {"default": 1.15, "exclusiveMinimum": 1, "title": "Alpha", "type": "number"}, "beta": {"default": 0.8, "exclusiveMaximum": 1, "exclusiveMinimum": 0, "title": "Beta", "type": "number"}, "delta": {"default": 0.02, "exclusiveMaximum": 1, "exclusiveMinimum": 0, "title": "Delta", "type": "number"}, "n_f": {"default": 7, "minimum": 1, "title": "N F", "type": "integer"}, "n_s": {"default": 2, "minimum": 1, "title": "N S", "type": "integer"}, "epsilon": {"default": 0.1, "exclusiveMaximum": 1, "exclusiveMinimum": 0, "title": "Epsilon", "type": "number"}, "hardness": {"additionalProperties": {"exclusiveMinimum": 0, "type": "number"}, "default": {}, "title": "Hardness", "type": "object"}}, "required": ["policy"], "title": "VirtualQueueAdmission", "type": "object"}}};

const classes = [
  { name: "static_top", share: 0.2, kind: "static", user: "top", service_s: { dist: "constant", value: 0.005 } },
  { name: "dynamic_normal", share: 0.8, kind: "dynamic", user: "normal", service_s: { dist: "constant", value: 0.05 } },
];
const doc = (admission: Scenario): Scenario => ({ name: "s", duration_s: 60, workload: { arrivals: { rate_per_s: 10 }, classes }, admission });

describe("the admission block of the scenario form", () => {
  it("starts a partition policy at docs/methods/admission.md's worked example", () => {
    const onSet = vi.fn();
    render(<AdmissionSection schema={SCHEMA} doc={doc({ policy: "none" })} onSet={onSet} error={null} />);
    fireEvent.change(screen.getByTestId("admission-policy"), { target: { value: "dynamic_part" } });
    expect(onSet).toHaveBeenCalledWith(["admission"], { policy: "dynamic_part", maxconn_sla: 18, maxconn: 26, period_s: 10 });
  });

  it("shows the partition fields with docs/methods/admission.md's names and units, and their bounds", () => {
    render(<AdmissionSection schema={SCHEMA} doc={doc({ policy: "static_part", maxconn_sla: 0, maxconn: 26 })} onSet={vi.fn()} error={null} />);
    expect(screen.getAllByText("Policy")).toHaveLength(1); // the schema's policy enum is not a second select
    expect(screen.getByText("MaxConn_D(T_D)")).toBeInTheDocument();
    expect(screen.getByText("(dynamic connections per server within the SLA)")).toBeInTheDocument();
    expect(screen.getByText("must be ≥ 1")).toBeInTheDocument();
  });

  it("shows discovery fields only when discovering, and hardness per class", () => {
    const onSet = vi.fn();
    const { rerender } = render(<AdmissionSection schema={SCHEMA} doc={doc({ policy: "virtual_queue", capacity: "discover" })} onSet={onSet} error={null} />);
    const discovery = screen.getByRole("group", { name: "Capacity discovery" });
    expect(within(discovery).getByText("First probed rate c0")).toBeInTheDocument();
    const hardness = screen.getByRole("group", { name: "Request hardness per class" });
    expect(within(hardness).getByText("dynamic_normal")).toBeInTheDocument();
    fireEvent.change(screen.getByTestId("admission-capacity-mode"), { target: { value: "fixed" } });
    expect(onSet).toHaveBeenCalledWith(["admission", "capacity"], 100);
    rerender(<AdmissionSection schema={SCHEMA} doc={doc({ policy: "virtual_queue", capacity: 100 })} onSet={onSet} error={{ path: "admission.capacity", message: "must be > 0" }} />);
    expect(screen.queryByRole("group", { name: "Capacity discovery" })).toBeNull();
    expect(screen.getByTestId("field-admission.capacity")).toHaveValue("100");
    expect(screen.getByText("must be > 0")).toBeInTheDocument();
  });
});
