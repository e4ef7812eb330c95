import type { ReactNode } from "react";
import { ApiError } from "../../api/errors";
import { isJobActive, type Characterization } from "../../api/models";
import { Card } from "../../components/Card";
import { EmptyState } from "../../components/EmptyState";
import { ErrorBanner } from "../../components/ErrorBanner";
import { Loading } from "../../components/Spinner";
import { JobProgress } from "../jobs/JobProgress";
import { jobFailure } from "../jobs/jobFailure";
import { resultOf, useCharacterization, useSlicedCharacterization } from "./queries";
import type { SliceBody } from "../datasets/slice";
import type { CharacterizationResult } from "./result";
import { DatasetIdContext } from "./datasetContext";

const FAILURE_HINT =
  "Open the Rules tab to check the classification rules and save them to run the characterization again.";

/** A slice's characterization fails with this code when the range and filters keep nothing. */
const EMPTY_SLICE = "empty_slice";

type GateChildren = (r: CharacterizationResult, characterizationId: number) => ReactNode;

/** Loads the characterization (starting it on the first visit, for viewers too: it is derived
 * under the stored rules) and shows its progress or failure; with a slice (a range and
 * filters), the characterization of that slice. */
export function CharacterizationGate({ datasetId, slice = null, children }: { datasetId: number; slice?: SliceBody | null; children: GateChildren }) {
  return slice === null ? <WholeGate datasetId={datasetId}>{children}</WholeGate> : <SliceGate datasetId={datasetId} slice={slice}>{children}</SliceGate>;
}

function SliceGate({ datasetId, slice, children }: { datasetId: number; slice: SliceBody; children: GateChildren }) {
  const query = useSlicedCharacterization(datasetId, slice);
  const what = slice.from_ms === undefined && slice.to_ms === undefined ? "filters" : "range and filters";
  if (query.isPending) return <Loading label={`Loading the characterization of the ${what}…`} />;
  if (query.isError) return <ErrorBanner error={query.error} title={`Could not characterize the ${what}`} />;
  if (query.data.job?.error_code === EMPTY_SLICE) {
    return (
      <EmptyState title="No requests to chart" testId="slice-empty">
        The {what} keep no request of this log. Widen the range or clear a filter.
      </EmptyState>
    );
  }
  return <Shown datasetId={datasetId} item={query.data}>{children}</Shown>;
}

function WholeGate({ datasetId, children }: { datasetId: number; children: GateChildren }) {
  const query = useCharacterization(datasetId);
  if (query.isPending) return <Loading label="Loading the workload characterization…" />;
  if (query.isError) {
    if (query.error instanceof ApiError && query.error.status === 403) {
      return (
        <EmptyState title="Not characterized yet" testId="characterization-missing">
          This dataset's workload has not been characterized. Ask an editor of the workspace to open this tab once: it
          starts the characterization.
        </EmptyState>
      );
    }
    return <ErrorBanner error={query.error} title="Could not load the workload characterization" />;
  }
  return <Shown datasetId={datasetId} item={query.data}>{children}</Shown>;
}

function Shown({ datasetId, item, children }: { datasetId: number; item: Characterization; children: GateChildren }) {
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
