import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { Forecast } from "../../api/models";
import { ForecastView } from "./ForecastTab";

function notEnough(over: Partial<NonNullable<Forecast["not_enough_history"]>>, warnings: string[] = []): Forecast {
  return {
    dataset_id: 1,
    horizon_days: 28,
    interval: 0.8,
    forecast: [],
    history: [],
    peak_per_s: null,
    growth: null,
    seasonality: null,
    runway: null,
    backtest: null,
    warnings,
    peak_week_scenario: null,
    not_enough_history: { reason: "too_short", requests: 6, span_s: 601, message: "not enough history to forecast", ...over },
  };
}

function renderView(doc: Forecast) {
  return render(
    <MemoryRouter>
      <ForecastView doc={doc} />
    </MemoryRouter>,
  );
}

describe("ForecastView of a history too small to forecast", () => {
  it("says what the history holds instead of a peak of 0.00 req/s", () => {
    renderView(notEnough({}));
    const banner = screen.getByTestId("forecast-not-enough");
    expect(banner).toHaveTextContent("Not enough history to forecast: 6 requests over 10 min 1 s");
    expect(banner).toHaveTextContent("A forecast needs at least two hours of traffic.");
    expect(screen.queryByText("Forecast peak")).toBeNull();
    expect(screen.queryByText(/0\.00/)).toBeNull();
    expect(screen.queryByTestId("simulate-peak-week")).toBeNull();
  });

  it("names a sparse slice's requests and span, and keeps the slice's note", () => {
    const note = "the history is cut to the range (a to b) and the filters: the forecast reads that only";
    renderView(notEnough({ reason: "too_sparse", requests: 1, span_s: 30 * 3600 }, [note]));
    const banner = screen.getByTestId("forecast-not-enough");
    expect(banner).toHaveTextContent("Not enough history to forecast: 1 request over 1 d 6 h");
    expect(banner).toHaveTextContent("Most of its hours hold no request");
    expect(screen.getByText(note)).toBeInTheDocument();
  });

  it("says rates, not requests, for a rate series", () => {
    renderView(notEnough({ requests: null, span_s: 3000 }));
    expect(screen.getByTestId("forecast-not-enough")).toHaveTextContent("Not enough history to forecast: rates over 50 min");
  });
});
