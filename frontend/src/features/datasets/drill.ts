import { createContext, useContext } from "react";

/** Opens the requests drawer for [fromMs, toMs) of the page's slice; null outside a dataset page. */
export type OpenDrill = (fromMs: number, toMs: number) => void;

export const DrillContext = createContext<OpenDrill | null>(null);

export function useDrill(): OpenDrill | null {
  return useContext(DrillContext);
}
