/**
 * MaxRate(T), MaxConn(T) and servers needed, read off a knee curve in the browser so the
 * SLA line can be dragged without a server round trip. Mirrors the engine
 * (headroom.engine.capacity.sla): measured points use the isotonic fit, model points their
 * value, and the latency is made non-decreasing; between points everything is linear. The
 * engine's fixture capacityMath.parity.json keeps the two in step (capacityMath.parity.test.ts).
 */
import type { CurvePoint } from "../../api/models";

export interface SlaCurve {
  load_per_s: number[];
  latency_s: number[];
  concurrency: number[];
}

export interface MaxRate {
  /** The largest load whose curve latency stays at or under T (0 when even the lightest load exceeds T). */
  rate_per_s: number;
  /** T is above the whole curve: the rate is the last point's load, only a lower bound. */
  capped: boolean;
  /** T is below the curve's first point: no observed load meets it. */
  below: boolean;
}

const EPS = 1e-9;

/** The curve the SLA figures are read from: sorted by load, latency non-decreasing. */
export function slaCurve(points: readonly CurvePoint[]): SlaCurve {
  const sorted = [...points].sort((a, b) => a.load_per_s - b.load_per_s);
  const curve: SlaCurve = { load_per_s: [], latency_s: [], concurrency: [] };
  let runningMax = 0;
  for (const p of sorted) {
    const raw = p.source === "measured" ? (p.latency_fit_s ?? p.latency_s) : p.latency_s;
    runningMax = Math.max(runningMax, raw);
    curve.load_per_s.push(p.load_per_s);
    curve.latency_s.push(runningMax);
    // Little's law when the point carries no concurrency: N = lambda x latency.
    curve.concurrency.push(p.concurrency ?? p.load_per_s * runningMax);
  }
  return curve;
}

/** Linear interpolation of ys at x over increasing xs, clamped to the ends (numpy.interp). */
export function interpolate(xs: readonly number[], ys: readonly number[], x: number): number {
  const n = xs.length;
  if (n === 0) return Number.NaN;
  if (x <= (xs[0] ?? 0)) return ys[0] ?? Number.NaN;
  if (x >= (xs[n - 1] ?? 0)) return ys[n - 1] ?? Number.NaN;
  let i = 1;
  while (i < n - 1 && (xs[i] ?? 0) < x) i += 1;
  const x0 = xs[i - 1] ?? 0;
  const x1 = xs[i] ?? 0;
  const y0 = ys[i - 1] ?? 0;
  const y1 = ys[i] ?? 0;
  return x1 === x0 ? y1 : y0 + ((x - x0) / (x1 - x0)) * (y1 - y0);
}

/** MaxRate(T): where the curve first crosses T, interpolated between the two points around it. */
export function maxRateAt(curve: SlaCurve, thresholdS: number): MaxRate {
  const { load_per_s: load, latency_s: lat } = curve;
  const first = lat[0];
  if (first === undefined || first > thresholdS) return { rate_per_s: 0, capped: false, below: first !== undefined };
  const i = lat.findIndex((y) => y > thresholdS);
  if (i === -1) return { rate_per_s: load[load.length - 1] ?? 0, capped: true, below: false };
  const l0 = load[i - 1] ?? 0;
  const l1 = load[i] ?? 0;
  const y0 = lat[i - 1] ?? 0;
  const y1 = lat[i] ?? 0;
  return { rate_per_s: l0 + ((thresholdS - y0) / (y1 - y0)) * (l1 - l0), capped: false, below: false };
}

/** MaxConn(T): the concurrency at MaxRate(T) (measured, or Little's law), 0 when no load meets T. */
export function maxConnAt(curve: SlaCurve, ratePerS: number): number {
  return ratePerS > 0 ? interpolate(curve.load_per_s, curve.concurrency, ratePerS) : 0;
}

/** The curve latency at a load (for the recommendation sentences and the chart marks). */
export function latencyAt(curve: SlaCurve, loadPerS: number): number {
  return interpolate(curve.load_per_s, curve.latency_s, loadPerS);
}

/** ceil(peak x growth / MaxRate), at least 1; null when MaxRate is 0 (no load meets the SLA). */
export function serversNeeded(peakPerS: number, growth: number, maxRatePerS: number): number | null {
  if (!(maxRatePerS > 0) || !(peakPerS >= 0) || !(growth > 0)) return null;
  return Math.max(1, Math.ceil((peakPerS * growth) / maxRatePerS - EPS));
}

export interface SlaFigures extends MaxRate {
  threshold_s: number;
  max_conn: number;
}

export function slaFigures(curve: SlaCurve, thresholdS: number): SlaFigures {
  const rate = maxRateAt(curve, thresholdS);
  return { ...rate, threshold_s: thresholdS, max_conn: maxConnAt(curve, rate.rate_per_s) };
}

/** The range the threshold handle moves in, and its keyboard step (1% of the range, rounded). */
export function thresholdRange(curve: SlaCurve): { min: number; max: number; step: number } {
  const lats = curve.latency_s;
  const top = lats.length > 0 ? Math.max(...lats) : 1;
  const max = niceCeil(top * 1.1);
  const step = niceCeil(max / 100);
  return { min: step, max, step };
}

/** The smallest 1, 2 or 5 x 10^k at or above v. */
export function niceCeil(v: number): number {
  if (!(v > 0)) return 1;
  const exp = Math.floor(Math.log10(v));
  const base = 10 ** exp;
  const m = [1, 2, 5, 10].find((k) => k * base >= v * (1 - EPS)) ?? 10;
  return m * base;
}

export function clamp(v: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, v));
}

/** Arrow keys move by a step, Page keys by ten, Home/End to the ends; null for other keys. */
export function thresholdForKey(
  key: string,
  value: number,
  range: { min: number; max: number; step: number },
): number | null {
  const { min, max, step } = range;
  const moves: Record<string, number> = {
    ArrowUp: value + step,
    ArrowRight: value + step,
    ArrowDown: value - step,
    ArrowLeft: value - step,
    PageUp: value + 10 * step,
    PageDown: value - 10 * step,
    Home: min,
    End: max,
  };
  const next = moves[key];
  if (next === undefined) return null;
  return clamp(Math.round(next / step) * step, min, max);
}
