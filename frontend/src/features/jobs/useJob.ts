import { useQuery } from "@tanstack/react-query";
import { getJob } from "../../api/endpoints";
import { isJobActive, type Job } from "../../api/models";

export const JOB_POLL_MS = 1000;

export const jobKey = (jobId: number) => ["job", jobId] as const;

/** Polls GET /jobs/{id} every second while the job is queued or running. */
export function useJob(jobId: number | null, initial?: Job | null) {
  return useQuery({
    queryKey: jobKey(jobId ?? -1),
    queryFn: () => getJob(jobId ?? -1),
    enabled: jobId !== null,
    initialData: initial ?? undefined,
    initialDataUpdatedAt: 0,
    refetchInterval: (query) => (query.state.data === undefined || isJobActive(query.state.data) ? JOB_POLL_MS : false),
    staleTime: 0,
  });
}
