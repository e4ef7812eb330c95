import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useReducer, useRef } from "react";
import { useBlocker, useNavigate } from "react-router";
import { isNotFound } from "../../api/client";
import { getDataset } from "../../api/endpoints";
import { asApiError } from "../../api/errors";
import { uploadDataset } from "../../api/upload";
import { datasetKeys } from "../datasets/queries";
import type { DatasetLocationState } from "../datasets/DatasetDetail";
import { JOB_POLL_MS, useJob } from "../jobs/useJob";
import { AUTO_PARSE, parseParams, type ParseChoice } from "./formats";
import { initialUploadState, isBusy, uploadReducer, type UploadEvent, type UploadState } from "./uploadMachine";

/** Pause on the finished progress bar so the user sees it complete before the page changes. */
export const DONE_PAUSE_MS = 800;

/** Consecutive 404 polls after which the job is taken as gone. */
export const MISSING_POLLS = 3;

/** While processing, feeds job (or, without a job, dataset) polls into the machine. */
function usePollProcessing(state: UploadState, dispatch: (e: UploadEvent) => void) {
  const processing = state.phase === "processing" ? state : null;
  const job = useJob(processing?.job?.id ?? null, processing?.job ?? null);
  const datasetId = processing !== null && processing.job === null ? processing.dataset.id : null;
  const dataset = useQuery({
    queryKey: ["upload", "dataset", datasetId],
    queryFn: () => getDataset(datasetId ?? -1),
    enabled: datasetId !== null,
    refetchInterval: JOB_POLL_MS,
  });
  useEffect(() => {
    if (job.data) dispatch({ type: "job", job: job.data });
  }, [job.data, dispatch]);
  useEffect(() => {
    if (dataset.data) dispatch({ type: "dataset", dataset: dataset.data });
  }, [dataset.data, dispatch]);
  // A job can briefly 404 right after the upload answered (its row not yet visible to
  // another request): give up only when it keeps missing.
  const missing = [job, dataset].find((q) => isNotFound(q.error) && q.errorUpdateCount >= MISSING_POLLS);
  useEffect(() => {
    if (missing?.error) dispatch({ type: "failed", error: asApiError(missing.error) });
  }, [missing?.error, dispatch]);
}

function useGoToDatasetWhenDone(state: UploadState) {
  const navigate = useNavigate();
  const client = useQueryClient();
  useEffect(() => {
    if (state.phase !== "done") return;
    void client.invalidateQueries({ queryKey: datasetKeys.all });
    const navState: DatasetLocationState = { duplicate: !state.created };
    const timer = window.setTimeout(
      () => void navigate(`/datasets/${state.dataset.id}`, { state: navState }),
      state.created ? DONE_PAUSE_MS : 0,
    );
    return () => window.clearTimeout(timer);
  }, [state, navigate, client]);
}

export const LEAVE_QUESTION = "The upload is still running. Leave this page and cancel it?";

/** Leaving the page (in the app or the browser) during an upload would cancel it: ask first. */
function useWarnBeforeLeaving(active: boolean) {
  const blocker = useBlocker(active);
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm(LEAVE_QUESTION)) blocker.proceed();
    else blocker.reset();
  }, [blocker]);
  useEffect(() => {
    if (!active) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [active]);
}

/** Upload with progress, then job polling, then navigation to the dataset. */
export function useUpload(workspaceId: number | null) {
  const [state, dispatch] = useReducer(uploadReducer, initialUploadState);
  const abortRef = useRef<AbortController | null>(null);
  const busy = isBusy(state);

  usePollProcessing(state, dispatch);
  useGoToDatasetWhenDone(state);
  useWarnBeforeLeaving(state.phase === "uploading");
  useEffect(() => () => abortRef.current?.abort(), []);

  const start = useCallback(
    (file: File, choice: ParseChoice = AUTO_PARSE) => {
      if (busy) return;
      const controller = new AbortController();
      abortRef.current = controller;
      dispatch({ type: "start", file: { name: file.name, sizeBytes: file.size }, nowMs: Date.now() });
      uploadDataset({
        file,
        workspaceId,
        signal: controller.signal,
        parse: parseParams(choice),
        onProgress: (p) => dispatch({ type: "progress", ...p, nowMs: Date.now() }),
        onResume: (resume) => dispatch({ type: "resumed", resume, nowMs: Date.now() }),
      }).then(
        (result) => dispatch({ type: "uploaded", ...result }),
        (error: unknown) => dispatch({ type: "failed", error: asApiError(error) }),
      );
    },
    [workspaceId, busy],
  );

  const cancel = useCallback(() => {
    abortRef.current?.abort();
    dispatch({ type: "reset" });
  }, []);

  const reset = useCallback(() => dispatch({ type: "reset" }), []);

  return { state, start, cancel, reset };
}
