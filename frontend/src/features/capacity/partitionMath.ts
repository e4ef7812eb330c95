/**
 * StaticPart (docs/methods/admission.md "StaticPart"), in the browser so the sliders answer live. Mirrors
 * headroom.engine.capacity.partitions: K = ceil(rho N + N (1 - rho) (1 - s)), s the safety
 * factor MaxConn_D(T_D) / MaxConn_D, clamped to [1, N - 1]. The engine's fixture
 * capacityMath.parity.json keeps the two in step (capacityMath.parity.test.ts).
 */

const EPS = 1e-9; // keeps ceil() from jumping over an exact integer because of rounding

export interface Partition {
  /** Servers in the High Set (top class), clamped to [1, N - 1]. */
  k: number;
  /** The formula's value before clamping. */
  kFormula: number;
  /** The formula asks for every server: the Low Set would refuse all normal traffic. */
  cannotMeet: boolean;
}

export function staticPartition(servers: number, topFraction: number, safety: number): Partition {
  const kFormula = Math.ceil(topFraction * servers + servers * (1 - topFraction) * (1 - safety) - EPS);
  return { k: Math.min(Math.max(kFormula, 1), servers - 1), kFormula, cannotMeet: kFormula >= servers };
}

/** The largest top fraction with K <= N - 1: rho <= (N s - 1) / (N s). */
export function maxTopFraction(servers: number, safety: number): number {
  return Math.max(0, (servers * safety - 1) / (servers * safety));
}

/** K against the top fraction from 0 to 1 (a step function, sampled finely enough to show every step). */
export function kCurve(servers: number, safety: number, samples = 200): { topFraction: number; k: number }[] {
  return Array.from({ length: samples + 1 }, (_, i) => {
    const topFraction = i / samples;
    return { topFraction, k: staticPartition(servers, topFraction, safety).k };
  });
}

/** MaxConn_D(T_D) / MaxConn_D, clamped to (0, 1]; null when either is unknown. */
export function safetyFactor(maxConnSla: number | null, maxConn: number | null): number | null {
  if (maxConnSla === null || maxConn === null || !(maxConn > 0) || !(maxConnSla > 0)) return null;
  return Math.min(1, maxConnSla / maxConn);
}
