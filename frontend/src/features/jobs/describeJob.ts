import type { Job } from "../../api/models";
import type { ProgressTone } from "../../components/ProgressBar";
import { formatEta, formatPercent } from "../../lib/format";

const STAGE_LABELS: Record<string, string> = {
  queued: "Waiting for a worker",
  reading: "Reading the file",
  detecting: "Detecting the log format",
  parsing: "Parsing log lines",
  writing: "Writing the request table",
  summarising: "Summarising traffic",
  summarizing: "Summarising traffic",
  loading: "Loading the request table",
  analysing: "Computing knee curves and SLA targets",
  analyzing: "Computing knee curves and SLA targets",
  done: "Done",
};

export function stageLabel(stage: string | null, status: Job["status"]): string {
  if (status === "succeeded") return "Done";
  if (status === "failed") return "Processing failed";
  if (status === "cancelled") return "Cancelled";
  if (stage === null || stage === "") return status === "queued" ? "Waiting for a worker" : "Processing";
  return STAGE_LABELS[stage] ?? stage.charAt(0).toUpperCase() + stage.slice(1).replace(/_/g, " ");
}

export interface JobView {
  label: string;
  fraction: number;
  caption: string;
  tone: ProgressTone;
}

/** What the job progress bar shows for a job: stage, percent, ETA or outcome. */
export function describeJob(job: Pick<Job, "status" | "progress" | "stage" | "eta_s" | "attempts">): JobView {
  const fraction = job.status === "succeeded" ? 1 : Math.min(1, Math.max(0, job.progress));
  const label = stageLabel(job.stage, job.status);
  if (job.status === "failed" || job.status === "cancelled") {
    return { label, fraction, caption: `Stopped at ${formatPercent(fraction, 0)}`, tone: "danger" };
  }
  if (job.status === "succeeded") return { label, fraction, caption: "Finished", tone: "success" };
  const retry = job.attempts > 1 ? ` · attempt ${job.attempts}` : "";
  const caption = job.status === "queued" ? `Queued${retry}` : `${formatEta(job.eta_s)}${retry}`;
  return { label, fraction, caption, tone: "active" };
}
