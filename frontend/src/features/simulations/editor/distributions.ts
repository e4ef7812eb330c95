/** The distribution families of the scenario document, and a valid starter of each. */
import type { Json } from "../scenarioDoc";

export const DISTS = ["constant", "uniform", "exponential", "lognormal", "pareto", "empirical", "mixture"] as const;
export type Dist = (typeof DISTS)[number];

/** What a new choice of family starts from (valid, so the YAML stays runnable). */
export function starterDist(dist: Dist): Json {
  const starters: Record<Dist, Json> = {
    constant: { dist, value: 1 },
    uniform: { dist, low: 0, high: 1 },
    exponential: { dist, mean: 1 },
    lognormal: { dist, mu: 0, sigma: 1 },
    pareto: { dist, alpha: 2, scale: 1 },
    empirical: { dist, values: [1] },
    mixture: { dist, parts: [[1, { dist: "constant", value: 1 }]] },
  };
  return starters[dist];
}

