/** Colour tokens a chart series may use; each is a CSS variable --color-<token> in tokens.css. */
export const CHART_COLOR_TOKENS = [
  "chart-requests",
  "status-1xx",
  "status-2xx",
  "status-3xx",
  "status-4xx",
  "status-5xx",
  "chart-latency",
  "chart-band",
  "chart-model",
  "chart-throughput",
  "chart-knee",
  "chart-breaking",
  "chart-sla",
] as const;

export type ColorToken = (typeof CHART_COLOR_TOKENS)[number];

export function colorVar(token: ColorToken | "chart-grid" | "chart-axis"): string {
  return `var(--color-${token})`;
}
