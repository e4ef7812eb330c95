import type { ReactNode } from "react";
import { ApiError } from "../../api/errors";
import { isJobActive } from "../../api/models";
import { Card } from "../../components/Card";
import { EmptyState } from "../../components/EmptyState";
import { ErrorBanner } from "../../components/ErrorBanner";
import { Loading } from "../../components/Spinner";
import { JobProgress } from "../jobs/JobProgress";
import { jobFailure } from "../jobs/jobFailure";
import { resultOf, useCharacterization } from "./queries";
import type { CharacterizationResult } from "./result";
import { DatasetIdContext } from "./datasetContext";

const FAILURE_HINT =
  "Open the Rules tab to check the classification rules and save them to run the characterization again.";

/** Loads the characterization (starting it on the first visit) and shows its progress or failure. */
export function CharacterizationGate({ datasetId, children }: { datasetId: number; children: (r: CharacterizationResult, characterizationId: number) => ReactNode }) {
  const query = useCharacterization(datasetId);
  if (query.isPending) return <Loading label="Loading the workload characterization…" />;
  if (query.isError) {
    if (query.error instanceof ApiError && (query.error.status === 403 || query.error.status === 404)) {
      return (
        <EmptyState title="Not characterized yet" testId="characterization-missing">
          This dataset's workload has not been characterized. Ask an editor of the workspace to open this tab once: it
          starts the characterization.
        </EmptyState>
      );
    }
    return <ErrorBanner error={query.error} title="Could not load the workload characterization" />;
  }
  const item = query.data;
  if (isJobActive(item.job) && item.job !== null) {
    return (
      <Card title="Characterizing the workload" subtitle="Classifying requests, finding sessions and pages, fitting distributions. This page updates by itself." testId="characterization-progress">
        <JobProgress job={item.job} />
      </Card>
    );
  }
  const result = resultOf(item);
  if (result === null) {
    return <ErrorBanner error={jobFailure(item.job)} title="The workload characterization failed" hint={FAILURE_HINT} />;
  }
  return <DatasetIdContext.Provider value={datasetId}>{children(result, item.id)}</DatasetIdContext.Provider>;
}
