import { describe, expect, it } from "vitest";
import { ApiError } from "../api/errors";
import { createQueryClient, ME_KEY, retryDelay, shouldRetry } from "./queryClient";

const err = (status: number) => new ApiError(status, "x", "x");

describe("query retries", () => {
  it("retries a 401 once, other 4xx never, server and network errors twice", () => {
    expect([0, 1].map((n) => shouldRetry(n, err(401)))).toEqual([true, false]);
    expect(shouldRetry(0, err(404))).toBe(false);
    expect([0, 1, 2].map((n) => shouldRetry(n, err(503)))).toEqual([true, true, false]);
    expect(shouldRetry(0, new TypeError("offline"))).toBe(true);
    expect(retryDelay(0, err(401))).toBe(300);
    expect(retryDelay(1, err(500))).toBe(2000);
  });

  it("drops the signed-in user when a query still gets 401", async () => {
    const client = createQueryClient();
    client.setQueryData(ME_KEY, { id: 1 });
    await client.query({ queryKey: ["x"], queryFn: () => Promise.reject(err(401)), retry: false }).catch(() => undefined);
    expect(client.getQueryData(ME_KEY)).toBeNull();
  });
});
