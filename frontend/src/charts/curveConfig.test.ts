import { describe, expect, it } from "vitest";
import { niceTicks } from "./curveConfig";

describe("niceTicks", () => {
  it("steps by 1, 2, 2.5 or 5 x 10^k from 0 to at or above the top", () => {
    expect(niceTicks(39.6, 6)).toEqual([0, 10, 20, 30, 40]);
    expect(niceTicks(29.1, 6)).toEqual([0, 5, 10, 15, 20, 25, 30]);
    expect(niceTicks(5)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(niceTicks(0.45)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(niceTicks(0)).toEqual([0, 1]);
  });
});
