/** A fraction 0..1 as a whole percent 0..100 for aria-valuenow; null when unknown. */
export function toPercent(value: number | null): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  return Math.round(Math.min(1, Math.max(0, value)) * 100);
}
