import { describe, expect, it } from "vitest";
import { sliceFromSearch, sliceQuery, sliceToSearch, WHOLE, zoomRange } from "./slice";

const T0 = Date.UTC(2024, 2, 1, 10, 0, 0);

describe("the dataset slice in the URL", () => {
  it("round-trips through the search params, keeping the others", () => {
    const slice = { from: T0, to: T0 + 180_000, res: 300, path: "/api/", status: "5xx" as const };
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
});
