/** What a simulation's progress means: simulated time for a run, runs done for a sweep. */
import type { Job } from "../../api/models";
import { formatEta } from "../../lib/format";
import { formatSimClock } from "../../charts/simConfig";
import type { Simulation } from "./api";

export const STATUS_TONES = { queued: "neutral", running: "info", succeeded: "success", failed: "danger", cancelled: "neutral" } as const;

export function progressCaption(simulation: Pick<Simulation, "kind" | "scenario" | "sweep">, job: Pick<Job, "status" | "progress" | "eta_s">): string {
  if (job.status === "queued") return "Waiting for a worker (the first run of a worker compiles the engine: about a minute)";
  if (simulation.kind === "sweep" && simulation.sweep !== null) {
    const runs = simulation.sweep.values.length * (simulation.sweep.second?.values.length ?? 1);
    const done = Math.min(runs, Math.floor((job.progress / 0.99) * runs + 1e-6));
    return `${done} of ${runs} runs done · ${formatEta(job.eta_s)}`;
  }
  const duration = Number(simulation.scenario.duration_s);
  if (!Number.isFinite(duration)) return formatEta(job.eta_s);
  const withSeconds = duration < 3600;
  return `simulated ${formatSimClock(job.progress * duration, withSeconds)} of ${formatSimClock(duration, withSeconds)} · ${formatEta(job.eta_s)}`;
}
