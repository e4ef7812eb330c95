/** The Traffic tab's chart rows of a Prometheus dataset (pure). */
import type { ClassTraffic, PrometheusTraffic } from "./api";

/** Classes drawn beside "all" at most (the busiest first). */
export const MAX_CLASSES = 6;

export type ClassRow = { t: number } & Record<string, number | null>;

/** "all" and the busiest classes, in that order. */
export function shownClasses(traffic: PrometheusTraffic): ClassTraffic[] {
  const [all, ...rest] = traffic.classes;
  const busiest = [...rest].sort((a, b) => b.requests - a.requests).slice(0, MAX_CLASSES);
  return all === undefined ? busiest : [all, ...busiest];
}

/** One row per chart point with each class' value under `c<index>`; where a shown class has
 * no value (a gap in the source's data) it is null, so its line breaks there instead of
 * dropping to zero or joining across the gap. */
export function classRows(classes: ClassTraffic[], value: "rate_per_s" | "error_share"): ClassRow[] {
  const first = classes[0];
  if (first === undefined) return [];
  const rows: ClassRow[] = [];
  first.points.forEach((point, i) => {
    const row: ClassRow = { t: Date.parse(point.t) };
    for (const [j, c] of classes.entries()) {
      row[`c${j}`] = c.points[i]?.[value] ?? null;
    }
    rows.push(row);
  });
  return rows;
}
