import { createContext } from "react";

/** The dataset whose characterization is shown (set by the gate), for charts that fetch more of it. */
export const DatasetIdContext = createContext<number | null>(null);
