import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeDataset, makeSummary } from "../../test/fixtures";
import { jsonResponse, renderWithApp } from "../../test/render";
import { ParseReport } from "./ParseReport";

function stubSummary(overrides: Parameters<typeof makeSummary>[0] = {}) {
  vi.stubGlobal(
    "fetch",
    vi.fn(() => Promise.resolve(jsonResponse(200, makeSummary({ notes: ["arrival = completion - duration"], ...overrides })))),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("ParseReport", () => {
  it("says the format was detected when the upload named none", async () => {
    stubSummary();
    renderWithApp(<ParseReport dataset={makeDataset({ status: "ready" })} />);
    expect(await screen.findByTestId("parse-format")).toHaveTextContent("Format detected");
    expect(screen.getByTestId("parse-format")).toHaveTextContent("arrival = completion - duration");
  });

  it("says the format was named at upload when a log format was given", async () => {
    stubSummary();
    const given = { format: null, log_format: "$remote_addr [$time_local] $request_time", zip_members: "first" } as const;
    renderWithApp(<ParseReport dataset={makeDataset({ status: "ready", parse_options: given })} />);
    const card = await screen.findByTestId("parse-format");
    expect(card).toHaveTextContent("Format given at upload");
    expect(card).toHaveTextContent("named at upload, not detected");
  });

  it("shows header lines as skipped, apart from rejects and outside the parsed share", async () => {
    // the IIS sample: 254 lines, 44 of them #Software/#Version/#Date/#Fields directives
    stubSummary({ format: "w3c", request_count: 210, rejected_count: 0, skipped_count: 44, rejects: [] });
    renderWithApp(<ParseReport dataset={makeDataset({ status: "ready" })} />);
    expect(await screen.findByTestId("parse-skipped")).toHaveTextContent("44");
    expect(screen.getByTestId("parse-lines")).toHaveTextContent("254");
    expect(screen.getByTestId("parse-parsed")).toHaveTextContent("210");
    expect(screen.getByTestId("parse-parsed")).toHaveTextContent("100% of the request lines");
    expect(screen.getByTestId("parse-rejected")).toHaveTextContent("0");
    expect(screen.getByTestId("rejects")).toHaveTextContent("Every line was parsed.");
  });

  it("counts the rejected share over request lines only", async () => {
    stubSummary({ request_count: 300, rejected_count: 100, skipped_count: 600 });
    renderWithApp(<ParseReport dataset={makeDataset({ status: "ready" })} />);
    expect(await screen.findByTestId("parse-parsed")).toHaveTextContent("75% of the request lines");
    expect(screen.getByTestId("rejects")).toHaveTextContent("100 of 400 request lines (25%)");
  });
});
