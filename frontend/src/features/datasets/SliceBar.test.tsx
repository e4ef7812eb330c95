import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { DatasetSlice } from "./slice";
import { SliceBar } from "./SliceBar";

const WHOLE: DatasetSlice = { from: null, to: null, res: null, path: "", status: null, pattern: "", cls: "", host: "", client: "" };

describe("SliceBar", () => {
  it("offers the filters and the request list for a log", () => {
    render(<SliceBar slice={WHOLE} onChange={() => undefined} onList={() => undefined} />);
    expect(screen.getByTestId("slice-path")).toBeInTheDocument();
    expect(screen.getByTestId("slice-list")).toBeInTheDocument();
    expect(screen.queryByTestId("slice-range-only")).toBeNull();
  });

  it("offers only the range for a Prometheus source's intervals, and says why", () => {
    render(<SliceBar slice={WHOLE} onChange={() => undefined} onList={() => undefined} rangeOnly />);
    expect(screen.getByTestId("slice-range")).toHaveTextContent("Every imported interval");
    expect(screen.getByTestId("slice-range-only")).toHaveTextContent("takes a time range but no filters");
    expect(screen.queryByTestId("slice-path")).toBeNull();
    expect(screen.queryByTestId("slice-list")).toBeNull();
  });
});
