import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { statusChartConfig } from "../features/datasets/summaryCharts";
import { makeSeries } from "../test/fixtures";
import { TimeSeriesChart } from "./TimeSeriesChart";

describe("TimeSeriesChart", () => {
  it("renders an accessible figure with its title, description and legend", () => {
    const counts = { "1xx": 0, "2xx": 10, "3xx": 1, "4xx": 2, "5xx": 1 };
    render(<TimeSeriesChart config={statusChartConfig(60, counts)} rows={makeSeries(10)} />);
    const figure = screen.getByTestId("chart-status");
    expect(figure).toHaveAccessibleName("Responses by status class");
    expect(figure).toHaveAccessibleDescription(/by HTTP status class/);
    const legend = within(figure).getByRole("list", { name: "Series" });
    expect(within(legend).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "5xx server error",
      "4xx client error",
      "3xx redirect",
      "2xx success",
    ]);
  });
});
