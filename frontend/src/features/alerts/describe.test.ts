import { describe, expect, it } from "vitest";
import type { Delivery } from "./api";
import { deliveryText, ruleText, thresholdFromField, thresholdText } from "./describe";

const delivery = (over: Partial<Delivery>): Delivery => ({
  id: 1,
  channel_id: 2,
  channel_name: "on-call",
  purpose: "alert",
  subject: "s",
  status: "sent",
  attempts: 1,
  last_error: null,
  created_at: "2026-11-26T08:00:00Z",
  finished_at: "2026-11-26T08:00:01Z",
  ...over,
});

describe("alert words", () => {
  it("says thresholds in the unit of their kind", () => {
    expect(thresholdText("p95_above_sla", 0.25)).toBe("250 ms");
    expect(thresholdText("p95_above_sla", 2)).toBe("2 s");
    expect(thresholdText("p95_above_sla", null)).toBe("the SLA target");
    expect(thresholdText("knee_below_baseline", null)).toBe("the previous evaluation");
    expect(thresholdText("error_rate_above", 0.015)).toBe("1.5%");
    expect(ruleText({ kind: "knee_below_baseline", threshold: 120 })).toBe("Knee lower than the baseline (120 req/s)");
  });

  it("reads the error rate field as a percentage", () => {
    expect(thresholdFromField("error_rate_above", "2.5")).toBeCloseTo(0.025, 12);
    expect(thresholdFromField("p95_above_sla", " ")).toBeNull();
    expect(thresholdFromField("p95_above_sla", "abc")).toBeNaN();
  });

  it("states a failed delivery with its tries and error", () => {
    const failed = delivery({ status: "failed", attempts: 3, last_error: "WebhookRefused: the receiver answered 500" });
    expect(deliveryText(failed)).toBe("on-call: failed after 3 tries: WebhookRefused: the receiver answered 500");
    expect(deliveryText(delivery({ status: "queued", attempts: 0 }))).toBe("on-call: sending…");
    expect(deliveryText(delivery({ status: "queued", attempts: 2, channel_name: null }))).toBe(
      "a removed channel: retrying (2 tries so far)",
    );
  });
});
