/** Formatters shared by stat cards, tables, chart axes and tooltips (en-US, UTC). */

const countFmt = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const compactFmt = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

export type Formatter = (value: number) => string;

const DASH = "—";

function isMissing(value: number | null | undefined): value is null | undefined {
  return value === null || value === undefined || !Number.isFinite(value);
}

export function formatCount(value: number | null | undefined): string {
  return isMissing(value) ? DASH : countFmt.format(value);
}

/** "1 response", "2,000 responses". */
export function formatCountOf(value: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(value)} ${value === 1 ? singular : plural}`;
}

export function formatCompact(value: number | null | undefined): string {
  return isMissing(value) ? DASH : compactFmt.format(value);
}

/** A number with up to `digits` significant decimals, trailing zeros dropped. */
export function formatDecimal(value: number | null | undefined, digits = 1): string {
  if (isMissing(value)) return DASH;
  return new Intl.NumberFormat("en-US", { maximumFractionDigits: digits }).format(value);
}

const BYTE_UNITS = ["B", "kB", "MB", "GB", "TB", "PB"] as const;

/** Decimal (SI) units: 1 kB = 1000 B, as disks and networks count. */
export function formatBytes(bytes: number | null | undefined): string {
  if (isMissing(bytes)) return DASH;
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  const sign = bytes < 0 ? "-" : "";
  return `${sign}${value.toFixed(digits)} ${BYTE_UNITS[unit] ?? "B"}`;
}

export function formatByteRate(bytesPerS: number | null | undefined): string {
  return isMissing(bytesPerS) ? DASH : `${formatBytes(bytesPerS)}/s`;
}

/** A fraction 0..1 as a percentage; tiny non-zero values keep two significant digits. */
export function formatPercent(fraction: number | null | undefined, digits = 1): string {
  if (isMissing(fraction)) return DASH;
  const pct = fraction * 100;
  if (pct === 0) return "0%";
  if (Math.abs(pct) < 0.1) return `${pct.toPrecision(2)}%`;
  return `${formatDecimal(pct, digits)}%`;
}

/** Seconds as a compact human duration: "850 ms", "45 s", "3 min 20 s", "2 h 14 min", "3 d 4 h". */
export function formatDuration(seconds: number | null | undefined): string {
  if (isMissing(seconds)) return DASH;
  const s = Math.max(0, seconds);
  if (s < 1) return `${Math.round(s * 1000)} ms`;
  if (s < 60) return `${formatDecimal(s, s < 10 ? 1 : 0)} s`;
  const parts: [number, string][] = [
    [Math.floor(s / 86400), "d"],
    [Math.floor((s % 86400) / 3600), "h"],
    [Math.floor((s % 3600) / 60), "min"],
    [Math.floor(s % 60), "s"],
  ];
  const first = parts.findIndex(([n]) => n > 0);
  return parts
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, u]) => `${n} ${u}`)
    .join(" ");
}

/** Latency in seconds shown in the unit that suits it: µs, ms or s. */
export function formatLatency(seconds: number | null | undefined): string {
  if (isMissing(seconds)) return DASH;
  if (seconds < 0.001) return `${formatDecimal(seconds * 1e6, 0)} µs`;
  if (seconds < 1) return `${formatDecimal(seconds * 1000, seconds < 0.01 ? 2 : 1)} ms`;
  return `${formatDecimal(seconds, 2)} s`;
}

export function formatRatePerS(perS: number | null | undefined): string {
  if (isMissing(perS)) return DASH;
  return `${formatDecimal(perS, perS < 10 ? 2 : 1)} req/s`;
}

const RATE_UNITS = [
  { unit: "req/s", perS: 1 },
  { unit: "req/min", perS: 60 },
  { unit: "req/h", perS: 3600 },
] as const;

/**
 * A rate in requests per second shown in the unit that keeps it readable: req/s from 1 req/s,
 * else req/min from 1 req/min, else req/h; 3 significant digits (whole numbers from 100), so
 * a non-zero rate never reads 0.
 */
export function formatRate(perS: number | null | undefined): string {
  if (isMissing(perS)) return DASH;
  const magnitude = Math.abs(perS);
  const pick = magnitude === 0 ? RATE_UNITS[0] : (RATE_UNITS.find((u) => magnitude * u.perS >= 1) ?? RATE_UNITS[2]);
  const value = perS * pick.perS;
  const shown = Math.abs(value) >= 100 ? formatCount(value) : new Intl.NumberFormat("en-US", { maximumSignificantDigits: 3 }).format(value);
  return `${shown} ${pick.unit}`;
}

export function formatRatePerMin(perMin: number | null | undefined): string {
  if (isMissing(perMin)) return DASH;
  return `${formatDecimal(perMin, perMin < 10 ? 1 : 0)} req/min`;
}

export function formatEta(seconds: number | null | undefined): string {
  if (isMissing(seconds)) return "estimating time left…";
  if (seconds < 1) return "almost done";
  return `about ${formatDuration(Math.ceil(seconds))} left`;
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function toDate(value: string | number | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

/** "2026-11-22 01:58 UTC" */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined) return DASH;
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return DASH;
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return `${date} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** Axis tick for a time axis: the date at midnight and for long spans, else the clock time. */
export function formatTimeTick(ms: number, spanMs: number): string {
  const d = new Date(ms);
  const midnight = d.getUTCHours() === 0 && d.getUTCMinutes() === 0 && d.getUTCSeconds() === 0;
  if (spanMs > 10 * 86400 * 1000 || (midnight && spanMs > 3600 * 1000)) {
    return `${MONTHS[d.getUTCMonth()] ?? ""} ${d.getUTCDate()}`;
  }
  const clock = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
  return spanMs < 120 * 1000 ? `${clock}:${pad(d.getUTCSeconds())}` : clock;
}

/** Tooltip label for a time bucket: "Nov 22, 01:58:00 UTC". */
export function formatTimeLabel(ms: number): string {
  const d = new Date(ms);
  const day = `${MONTHS[d.getUTCMonth()] ?? ""} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
  return `${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;
}

/** "8,160 req/min" -> {value: "8,160", unit: "req/min"}; text without a unit is all value. */
export function splitUnit(text: string): { value: string; unit: string } {
  const match = /^(-?[\d.,]+)\s+(\S.*)$/.exec(text);
  return match ? { value: match[1] ?? text, unit: match[2] ?? "" } : { value: text, unit: "" };
}
