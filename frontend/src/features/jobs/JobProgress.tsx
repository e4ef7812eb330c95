import type { Job } from "../../api/models";
import { ProgressBar } from "../../components/ProgressBar";
import { describeJob } from "./describeJob";

/** The processing progress bar: stage + percent + ETA (data-testid "job-progress"). */
export function JobProgress({ job }: { job: Job }) {
  const view = describeJob(job);
  return (
    <ProgressBar value={view.fraction} label={view.label} caption={view.caption} tone={view.tone} testId="job-progress" />
  );
}
