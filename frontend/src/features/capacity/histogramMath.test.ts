import { describe, expect, it } from "vitest";
import { bucketOf } from "./histogramMath";

describe("bucketOf", () => {
  const bounds = [0.1, 0.2, "+Inf" as const];
  it("names the bucket holding a latency, the first from 0 and the last open", () => {
    expect(bucketOf(bounds, 0.05)).toEqual([0, 0.1]);
    expect(bucketOf(bounds, 0.15)).toEqual([0.1, 0.2]);
    expect(bucketOf(bounds, 0.2)).toEqual([0.1, 0.2]); // bounds are inclusive (le)
    expect(bucketOf(bounds, 0.5)).toEqual([0.2, null]);
  });
});
