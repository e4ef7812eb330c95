import { describe, expect, it } from "vitest";
import { readCapacityReport } from "../../api/capacityReport";
import { recommendations } from "./recommendations";

/** A report as engine/capacity/report.py writes it, with the virtual-queue advice. */
const RESULT = {
  classes: {},
  capacity: { power_peak_load_per_s: 83.2, r2: 0.93 },
  capacity_reason: null,
  per_server: false,
  servers: [],
  warnings: [],
  virtual_queue: { capacity_per_s: 83.2, latency_s: 0.412, latency_source: "measured", percentile: 95, max_wait_s: 95, peak_at_s: 1180, refused: 0 },
};

describe("the virtual-queue recommendation", () => {
  it("says C, X and W and links to the virtual queue page", () => {
    const report = readCapacityReport(RESULT);
    if (report === null) throw new Error("fixture");
    const rec = recommendations(report, 95, {}).find((r) => r.id === "virtual-queue");
    expect(rec?.text).toBe("A virtual queue with capacity 83.2 req/s keeps response time under 412 ms (p95); the longest wait at your peak would be 1 min 35 s.");
    expect(rec?.link).toEqual({ to: "/policies/virtual-queue", label: "Try a virtual queue" });
    expect(rec?.confidence).toBe("measured");
    expect(rec?.chart).toBe("knee-chart"); // X is read off the knee curve
  });

  it("is a lower bound beyond the curve, and absent without the advice", () => {
    const beyond = readCapacityReport({ ...RESULT, virtual_queue: { ...RESULT.virtual_queue, latency_source: "beyond the curve" } });
    expect(beyond !== null && recommendations(beyond, 95, {}).find((r) => r.id === "virtual-queue")?.confidence).toBe("lower bound");
    const old = readCapacityReport({ ...RESULT, virtual_queue: undefined });
    expect(old !== null && recommendations(old, 95, {}).some((r) => r.id === "virtual-queue")).toBe(false);
  });
});
