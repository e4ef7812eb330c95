import { describe, expect, it } from "vitest";
import { describeValues } from "./frontier";
import { sweepValueLabel } from "./sweep";

describe("sweep value labels", () => {
  it("names a block on an axis by its policy, and prints plain values as they are", () => {
    expect(sweepValueLabel({ policy: "dynamic_part", maxconn_sla: 5, maxconn: 10 })).toBe("dynamic_part");
    expect(sweepValueLabel(0.8)).toBe("0.8");
    expect(sweepValueLabel([1, 2])).toBe("1, 2");
    expect(sweepValueLabel({ low: 1 })).toBe('{"low":1}');
    expect(sweepValueLabel(undefined)).toBe("—");
  });

  it("describes a run of a comparison sweep without [object Object]", () => {
    const row = { values: { admission: { policy: "switch_adm" }, "workload.arrivals.rate_per_s": 150 } };
    expect(describeValues(row)).toBe("admission = switch_adm, workload.arrivals.rate_per_s = 150");
  });
});
