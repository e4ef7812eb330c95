/** Small pure helpers of the report pages. */
import { formatDecimal } from "../../lib/format";

/** `ids` with the item at `index` moved by `by` places (clamped to the ends). */
export function moved(ids: readonly number[], index: number, by: number): number[] {
  const target = Math.min(ids.length - 1, Math.max(0, index + by));
  const out = [...ids];
  const [id] = out.splice(index, 1);
  if (id !== undefined) out.splice(target, 0, id);
  return out;
}

/** An ISO time `days` from now, or null for a link that lives until revoked. */
export function expiryFrom(days: number, nowMs: number): string | null {
  return days === 0 ? null : new Date(nowMs + days * 86_400_000).toISOString();
}

/** "+12.5 %" / "−3 %" (a real minus sign), or "—" when there is no base to compare with. */
export function formatChange(pct: number | null | undefined): string {
  if (pct === null || pct === undefined) return "—";
  const sign = pct > 0 ? "+" : pct < 0 ? "−" : "±";
  return `${sign}${formatDecimal(Math.abs(pct), Math.abs(pct) < 10 ? 1 : 0)} %`;
}

/** The request classes (capacity) or servers (SCT) an analysis' result offers. */
export function viewsOf(kind: string, result: unknown): string[] {
  if (typeof result !== "object" || result === null) return [];
  const found = (result as Record<string, unknown>)[kind === "sct" ? "servers" : "classes"];
  return typeof found === "object" && found !== null ? Object.keys(found) : [];
}
