import { describe, expect, it } from "vitest";
import { describeFilters, sameSlice, sliceBody, sliceFromSearch, sliceQuery, sliceToSearch, WHOLE, zoomRange } from "./slice";

const T0 = Date.UTC(2024, 2, 1, 10, 0, 0);

describe("the dataset slice in the URL", () => {
  it("round-trips through the search params, keeping the others", () => {
    const slice = { ...WHOLE, from: T0, to: T0 + 180_000, res: 300, path: "/api/", status: "5xx" as const };
    const search = sliceToSearch(new URLSearchParams("tab=traffic"), slice);
    expect(search.get("tab")).toBe("traffic");
    expect(search.get("from")).toBe("2024-03-01T10:00:00Z");
    expect(search.get("to")).toBe("2024-03-01T10:03:00Z");
    expect(sliceFromSearch(search)).toEqual(slice);
  });

  it("writes nothing for the whole log and reads unreadable values as absent", () => {
    expect(sliceToSearch(new URLSearchParams("from=x&path=/a"), WHOLE).toString()).toBe("");
    expect(sliceFromSearch(new URLSearchParams("from=nonsense&res=-3&status=6xx"))).toEqual(WHOLE);
  });

  it("drops a range whose end is not after its start", () => {
    const s = sliceFromSearch(new URLSearchParams(`from=${T0 + 5}&to=${T0}`));
    expect([s.from, s.to]).toEqual([null, null]);
  });

  it("asks the API for only what is set", () => {
    expect(sliceQuery(WHOLE)).toEqual({});
    expect(sliceQuery({ ...WHOLE, from: 5, status: "4xx" })).toEqual({ from: 5, status_class: "4xx" });
  });

  it("zooms from the first bucket's start to the end of the last, in either drag direction", () => {
    expect(zoomRange(T0 + 120_000, T0, 60_000)).toEqual({ from: T0, to: T0 + 180_000 });
  });

  it("keeps the pattern, class, host and client filters in the URL and asks the API for them", () => {
    const slice = { ...WHOLE, from: T0, pattern: "~^/api/v[12]/", cls: "writes", host: "shop.example", client: "10.0.0.7" };
    const search = sliceToSearch(new URLSearchParams("tab=capacity"), slice);
    expect(search.get("pattern")).toBe("~^/api/v[12]/");
    expect(search.get("class")).toBe("writes");
    expect(sliceFromSearch(search)).toEqual(slice);
    expect(sliceQuery(slice)).toEqual({ from: T0, path_pattern: "~^/api/v[12]/", request_class: "writes", host: "shop.example", client: "10.0.0.7" });
    expect(describeFilters(slice)).toEqual(["path matching ~^/api/v[12]/", "class writes", "host shop.example", "client 10.0.0.7"]);
  });

  it("sends the slice an analysis is keyed on, and matches it against a stored one", () => {
    expect(sliceBody(WHOLE)).toBeNull();
    const body = sliceBody({ ...WHOLE, from: 5, to: 9, host: "a" });
    expect(body).toEqual({ from_ms: 5, to_ms: 9, host: "a" });
    const stored = { from_ms: 5, to_ms: 9, host: "a", client: null, path_prefix: null };
    expect(sameSlice(stored, body)).toBe(true);
    expect(sameSlice({ ...stored, client: "b" }, body)).toBe(false);
    expect(sameSlice(null, null)).toBe(true);
    expect(sameSlice(stored, null)).toBe(false);
  });
});
