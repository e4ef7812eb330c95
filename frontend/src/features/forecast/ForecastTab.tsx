/** The Forecast tab: history, the hourly forecast and its 80% interval, the limit line, the
 * runway in words, and a scenario of the forecast's peak week to simulate. */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { getForecast } from "../../api/endpoints";
import type { Forecast } from "../../api/models";
import { Banner } from "../../components/Banner";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import { Loading } from "../../components/Spinner";
import { StatCard } from "../../components/StatCard";
import { TextField } from "../../components/TextField";
import { useDebounced } from "../../lib/useDebounced";
import { SelectField } from "../simulations/editor/fields";
import { SimChart } from "../../charts/SimChart";
import type { SimChartConfig } from "../../charts/simConfig";
import { formatDateTime, formatPercent } from "../../lib/format";
import gridStyles from "../datasets/StatGrid.module.css";
import { cyclesWords, forecastSeries, isForecasted, notEnoughWords, runwayWords } from "./forecast";
import type { SliceQuery } from "../datasets/slice";

const HORIZONS = [14, 28, 56, 91, 182, 365].map((d) => ({ value: String(d), label: `${d} days` }));

/** The limit is a series of the chart (forecast.ts), named in its legend: a reference
 * line's label on the plot would sit on the forecast where the two meet. */
function chartConfig(): SimChartConfig {
  return {
    id: "forecast-chart",
    title: "Traffic forecast",
    description: "Hourly mean request rate: the history, the forecast (median) and its 80% interval, and the limit the site holds.",
    x: { label: "time (UTC)", format: (ms) => formatDateTime(ms).slice(0, 10) },
    y: { label: "req/s", format: (v) => v.toPrecision(3) },
  };
}

function Notes({ warnings }: { warnings: string[] }) {
  return warnings.map((w) => (
    <Banner key={w} tone="info" title="Note">{w}</Banner>
  ));
}

/** The figures of a forecast made, or what the history holds when it is too little to
 * make one (never a peak of 0.00 req/s that the data does not hold). */
export function ForecastView({ doc }: { doc: Forecast }) {
  const navigate = useNavigate();
  if (!isForecasted(doc)) {
    const words = doc.not_enough_history ? notEnoughWords(doc.not_enough_history) : { title: "No forecast", reason: "" };
    return (
      <>
        <Banner tone="info" title={words.title} testId="forecast-not-enough">{words.reason}</Banner>
        <Notes warnings={doc.warnings} />
      </>
    );
  }
  const simulate = () => void navigate("/simulations/new", { state: { scenario: doc.peak_week_scenario } });
  return (
    <>
      <Banner tone={doc.runway.date ? "warning" : "info"} title="Runway">
        <span data-testid="forecast-runway">{runwayWords(doc)}</span>
      </Banner>
      <Notes warnings={doc.warnings} />
      <div className={gridStyles.grid}>
        <StatCard label="Growth" value={`${doc.growth.per_week >= 0 ? "+" : ""}${formatPercent(doc.growth.per_week)}`} unit="a week" />
        <StatCard label="Forecast peak" value={doc.peak_per_s.toPrecision(3)} unit="req/s" />
        <StatCard label="Cycles found" value={cyclesWords(doc)} />
        <StatCard label="Backtest error" value={doc.backtest ? formatPercent(doc.backtest.mape) : "—"} unit="MAPE" hint="the last 20% of the history forecast from the rest" />
      </div>
      <Card
        title="History and forecast"
        actions={
          <Button variant="secondary" onClick={simulate} data-testid="simulate-peak-week">
            Simulate the forecast peak week
          </Button>
        }
      >
        <SimChart config={chartConfig()} series={forecastSeries(doc)} height={340} />
      </Card>
    </>
  );
}

export function ForecastTab({ datasetId, slice = {} }: { datasetId: number; slice?: SliceQuery }) {
  const [horizon, setHorizon] = useState("28");
  const [limitText, setLimitText] = useState("");
  const limit = useDebounced(limitText, 500);
  const limitPerS = Number(limit) > 0 ? Number(limit) : undefined;
  const query = useQuery({
    queryKey: ["datasets", "forecast", datasetId, horizon, limitPerS, slice],
    queryFn: () => getForecast(datasetId, { horizon_days: Number(horizon), limit_per_s: limitPerS, ...slice }),
    staleTime: 60_000,
  });
  return (
    <div data-testid="forecast-tab" style={{ display: "grid", gap: "1rem" }}>
      <div style={{ display: "flex", gap: "1rem", alignItems: "flex-end", flexWrap: "wrap" }}>
        <SelectField label="Horizon" value={horizon} options={HORIZONS} onChange={setHorizon} testId="forecast-horizon" />
        <TextField
          label="Limit (req/s; empty: MaxRate(T) x servers of the capacity analysis)"
          type="number"
          min={0}
          step="any"
          value={limitText}
          onChange={(e) => setLimitText(e.target.value)}
          data-testid="forecast-limit"
        />
      </div>
      {query.error !== null && <ErrorBanner error={query.error} title="Could not forecast this dataset" />}
      {query.isPending && <Loading label="Forecasting…" />}
      {query.data !== undefined && <ForecastView doc={query.data} />}
    </div>
  );
}
