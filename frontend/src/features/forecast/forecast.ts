/** The Forecast tab's pure logic: the runway in words and the chart's series. */
import type { Forecast } from "../../api/models";
import type { SimSeries } from "../../charts/simConfig";
import { formatCountOf, formatDuration, formatPercent } from "../../lib/format";

type Figures = "peak_per_s" | "growth" | "seasonality" | "runway" | "peak_week_scenario";

/** A forecast that was made: every figure given. */
export type Forecasted = Omit<Forecast, Figures> & { [K in Figures]: NonNullable<Forecast[K]> };

export function isForecasted(doc: Forecast): doc is Forecasted {
  return !doc.not_enough_history && doc.peak_per_s !== null && doc.growth !== null && doc.seasonality !== null && doc.runway !== null && doc.peak_week_scenario !== null;
}

type NotEnoughHistory = NonNullable<Forecast["not_enough_history"]>;

/** "Not enough history to forecast: 6 requests over 10 min", and why. */
export function notEnoughWords(why: NotEnoughHistory): { title: string; reason: string } {
  const held = why.requests === null ? "rates" : formatCountOf(why.requests, "request");
  return {
    title: `Not enough history to forecast: ${held} over ${formatDuration(why.span_s)}`,
    reason:
      why.reason === "too_short"
        ? "A forecast needs at least two hours of traffic."
        : "Most of its hours hold no request: a forecast would read those empty hours as the level.",
  };
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "14 March 2027" from an ISO date: the year always, as a runway can pass New Year. */
export function dayWords(iso: string): string {
  const [year = 0, month = 1, day = 1] = iso.split("-").map(Number);
  return `${day} ${MONTHS[month - 1] ?? ""} ${year}`;
}

function rate(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 1 ? value.toPrecision(3) : value.toPrecision(2);
}

/** The runway in words: "at this growth the peak passes 412 req/s on 14 March 2027". */
export function runwayWords(doc: Forecasted): string {
  const { limit_per_s: limit, date } = doc.runway;
  if (limit === null) return "No limit is known: run a capacity analysis, or give one, to see the runway.";
  const growth = `${doc.growth.per_week >= 0 ? "+" : ""}${formatPercent(doc.growth.per_week)} a week`;
  if (date === null) {
    return `At this growth (${growth}) the peak stays under ${rate(limit)} req/s for the next ${doc.horizon_days} days.`;
  }
  return `At this growth (${growth}) the peak passes ${rate(limit)} req/s on ${dayWords(date)}.`;
}

/** The limit's name in the legend: "Limit (412 req/s)". */
export function limitLabel(limit: number): string {
  return `Limit (${rate(limit)} req/s)`;
}

/** History, forecast and its 80% interval against time (epoch ms), and the limit as a
 * level line over the whole span: named in the legend, so no label sits on the plot. */
export function forecastSeries(doc: Forecasted): SimSeries[] {
  const at = (t: string) => Date.parse(t);
  const limit = doc.runway.limit_per_s;
  const hours = [...doc.history, ...doc.forecast].map((p) => at(p.t));
  const limitSeries: SimSeries[] =
    limit === null ? [] : [{ key: "limit", label: limitLabel(limit), color: "chart-breaking", kind: "line", dashed: true, points: hours.map((x) => ({ x, y: limit })) }];
  return [
    { key: "history", label: "History", color: "chart-requests", kind: "line", points: doc.history.map((p) => ({ x: at(p.t), y: p.rate_per_s })) },
    { key: "forecast", label: "Forecast (median)", color: "chart-model", kind: "line", points: doc.forecast.map((p) => ({ x: at(p.t), y: p.rate_per_s })) },
    { key: "hi", label: "80% interval", color: "chart-band", kind: "line", dashed: true, points: doc.forecast.map((p) => ({ x: at(p.t), y: p.hi })) },
    { key: "lo", label: "80% interval (low)", color: "chart-band", kind: "line", dashed: true, hideInLegend: true, points: doc.forecast.map((p) => ({ x: at(p.t), y: p.lo })) },
    ...limitSeries,
  ];
}

/** The cycles found, in words. */
export function cyclesWords(doc: Forecasted): string {
  const found = [doc.seasonality.daily && "daily", doc.seasonality.weekly && "weekly"].filter(Boolean);
  return found.length === 0 ? "none" : found.join(" and ");
}
