/** For tests: the parts of a run document a chart does not read, empty (the generated
 * RunDocument type asks for every series the server sends). */
import type { RunDocument } from "./results";

export const unreadTicks: Omit<RunDocument["series"], "window_s" | "window_t_s" | "window_p95_latency_s" | "window_violated"> = {
  monitor_s: 1,
  allocated_vms_t_s: [],
  allocated_vms: [],
  active_vms_t_s: [],
  active_vms: [],
  arrivals_per_s_t_s: [],
  arrivals_per_s: [],
  completions_per_s_t_s: [],
  completions_per_s: [],
  rejected_per_s_t_s: [],
  rejected_per_s: [],
  utilization_t_s: [],
  utilization: [],
  waiting_t_s: [],
  waiting: [],
  in_system_t_s: [],
  in_system: [],
};

export const unreadRates = { monitor_s: 1, waiting: [], in_system: [] };
