import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { makeSummary } from "../../test/fixtures";
import { SummaryView } from "./SummaryView";

const TRACE_FIELDS = {
  status: false,
  bytes: false,
  latency: true,
  client: false,
  user_agent: false,
  referrer: false,
  path: false,
  span_s: 134,
  sessions: false,
  daily_profile: false,
};

describe("SummaryView of a latency trace (no status codes, no sizes)", () => {
  const trace = makeSummary({
    error_rate: null,
    client_error_rate: null,
    status_counts: null,
    bytes_total: null,
    rejected_count: 0,
    rejects: [],
    fields_recorded: TRACE_FIELDS,
  });

  it("says the error rates and the data volume are not recorded, never 0% or 0 B", () => {
    render(<SummaryView summary={trace} />);
    for (const label of ["Server errors (5xx)", "Client errors (4xx)"]) {
      const card = screen.getByRole("group", { name: label });
      expect(card).toHaveTextContent("not recorded");
      expect(card).toHaveTextContent("this log has no status codes");
      expect(card).not.toHaveTextContent("%");
    }
    const volume = screen.getByRole("group", { name: "Data volume" });
    expect(volume).toHaveTextContent("not recorded");
    expect(volume).not.toHaveTextContent("0 B");
  });

  it("replaces the status chart with a line saying why", () => {
    render(<SummaryView summary={trace} />);
    expect(screen.getByTestId("chart-status-not-recorded")).toHaveTextContent("not recorded: this log has no status codes");
  });

  it("keeps the figures of a log that records them", () => {
    render(<SummaryView summary={makeSummary()} />);
    expect(screen.getByTestId("stat-error-rate")).toHaveTextContent("1.23%");
    expect(screen.queryByText("not recorded")).toBeNull();
    expect(screen.queryByTestId("chart-status-not-recorded")).toBeNull();
  });
});

describe("the Overview's rate cards", () => {
  it("show a slow log's rates in a unit that keeps them readable, never 0", () => {
    // the IIS sample: 0.00257 req/s; its busiest hour 11 requests
    render(<SummaryView summary={makeSummary({ mean_rate_per_s: 0.00257, peak_rate_per_min: 11 / 60, peak_bucket_s: 3600 })} />);
    expect(screen.getByTestId("stat-mean-rate")).toHaveTextContent("9.25 req/h");
    expect(screen.getByTestId("stat-peak-rate")).toHaveTextContent("11 req/h");
    expect(screen.getByTestId("stat-mean-rate")).not.toHaveTextContent(/\b0 req/);
  });

  it("keep req/s for a busy one", () => {
    render(<SummaryView summary={makeSummary({ mean_rate_per_s: 1050, peak_rate_per_min: 70_200 })} />);
    expect(screen.getByTestId("stat-mean-rate")).toHaveTextContent("1,050 req/s");
    expect(screen.getByTestId("stat-peak-rate")).toHaveTextContent("1,170 req/s");
  });
});

describe("SummaryView's charts and the keyboard", () => {
  it("Escape on a focused chart shows the whole range again", () => {
    const onZoom = vi.fn();
    const onReset = vi.fn();
    render(<SummaryView summary={makeSummary()} onZoom={onZoom} onReset={onReset} />);
    const plot = document.querySelector<HTMLElement>('[data-testid$="-plot"]');
    if (plot === null) throw new Error("no chart takes the keyboard");
    fireEvent.keyDown(plot, { key: "Escape" });
    expect(onReset).toHaveBeenCalledTimes(1);
    expect(onZoom).not.toHaveBeenCalled();
  });
});
