import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { Link, useLocation, useSearchParams } from "react-router";
import { isDatasetBusy, uploaderName, type Dataset, type Job } from "../../api/models";
import { isNotFound } from "../../api/client";
import { Banner } from "../../components/Banner";
import { ButtonLink } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import { PageHeader } from "../../components/PageHeader";
import { Loading } from "../../components/Spinner";
import { formatBytes, formatDateTime } from "../../lib/format";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { AlertsTab } from "../alerts/AlertsTab";
import { CapacitySection } from "../capacity/CapacitySection";
import { ConcurrencyTab } from "../capacity/ConcurrencySection";
import { CharacterizationGate } from "../characterization/Gate";
import { LatencyTab } from "../characterization/LatencyTab";
import { RulesTab } from "../characterization/RulesTab";
import { TrafficTab } from "../characterization/TrafficTab";
import { WorkloadTab } from "../characterization/WorkloadTab";
import { ForecastTab } from "../forecast/ForecastTab";
import { JobProgress } from "../jobs/JobProgress";
import { jobFailure, jobFailureHint } from "../jobs/jobFailure";
import { useJob } from "../jobs/useJob";
import { useCanWrite } from "../workspaces/useRole";
import styles from "./DatasetDetail.module.css";
import { ParseReport } from "./ParseReport";
import { datasetKeys, useDataset, useSummary } from "./queries";
import { SummaryView } from "./SummaryView";

export interface DatasetLocationState {
  duplicate?: boolean;
}

function ProcessingCard({ dataset, job }: { dataset: Dataset; job: Job }) {
  const client = useQueryClient();
  const live = useJob(job.id, job);
  const current = live.data ?? job;
  const finished = current.status === "succeeded" || current.status === "failed";
  useEffect(() => {
    if (finished) void client.invalidateQueries({ queryKey: datasetKeys.detail(dataset.id) });
  }, [finished, client, dataset.id]);
  return (
    <Card title="Processing" subtitle="Parsing the log and summarising its traffic. This page updates by itself.">
      <JobProgress job={current} />
    </Card>
  );
}

const TABS = [
  { id: "overview", label: "Overview" },
  { id: "traffic", label: "Traffic" },
  { id: "latency", label: "Latency" },
  { id: "workload", label: "Workload" },
  { id: "rules", label: "Rules" },
  { id: "parse", label: "Parse report" },
  { id: "capacity", label: "Capacity" },
  { id: "concurrency", label: "Concurrency" },
  { id: "forecast", label: "Forecast" },
  { id: "alerts", label: "Alerts" },
] as const;

type TabId = (typeof TABS)[number]["id"];

function tabFromSearch(value: string | null): TabId {
  return TABS.find((t) => t.id === value)?.id ?? "overview";
}

function TabPanel({ tab, dataset }: { tab: TabId; dataset: Dataset }) {
  const id = dataset.id;
  switch (tab) {
    case "overview":
      return <TrafficView dataset={dataset} />;
    case "traffic":
      return <CharacterizationGate datasetId={id}>{(r) => <TrafficTab result={r} />}</CharacterizationGate>;
    case "latency":
      return <CharacterizationGate datasetId={id}>{(r) => <LatencyTab result={r} />}</CharacterizationGate>;
    case "workload":
      return <CharacterizationGate datasetId={id}>{(r) => <WorkloadTab result={r} />}</CharacterizationGate>;
    case "rules":
      return <RulesTab datasetId={id} />;
    case "parse":
      return <ParseReport dataset={dataset} />;
    case "capacity":
      return <CapacitySection datasetId={id} />;
    case "concurrency":
      return <ConcurrencyTab dataset={dataset} />;
    case "forecast":
      return <ForecastTab datasetId={id} />;
    case "alerts":
      return <AlertsTab datasetId={id} />;
  }
}

/** The dataset's views as tabs; the tab is in the URL (?tab=latency), Overview without one. */
function ReadyView({ dataset }: { dataset: Dataset }) {
  const [search, setSearch] = useSearchParams();
  const tab = tabFromSearch(search.get("tab"));
  return (
    <div className={styles.stack}>
      <div className={styles.tabs} role="tablist" aria-label="Dataset views">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            className={styles.tab}
            aria-selected={tab === t.id}
            aria-controls="dataset-tabpanel"
            data-testid={`tab-${t.id}`}
            onClick={() => setSearch(t.id === "overview" ? {} : { tab: t.id }, { replace: true, state: null })}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="dataset-tabpanel" aria-labelledby={`tab-${tab}`}>
        <TabPanel tab={tab} dataset={dataset} />
      </div>
    </div>
  );
}

function TrafficView({ dataset }: { dataset: Dataset }) {
  const summary = useSummary(dataset.id, true);
  if (summary.isPending) return <Loading label="Loading the traffic summary…" />;
  if (summary.isError) return <ErrorBanner error={summary.error} title="Could not load the traffic summary" />;
  return <SummaryView summary={summary.data} />;
}

function Body({ dataset }: { dataset: Dataset }) {
  const canWrite = useCanWrite();
  if (dataset.job !== null && isDatasetBusy(dataset)) return <ProcessingCard dataset={dataset} job={dataset.job} />;
  if (isDatasetBusy(dataset)) return <Loading label="Waiting for processing to start…" />;
  if (dataset.status === "failed") {
    const error = jobFailure(dataset.job);
    return (
      <ErrorBanner
        error={error}
        title="This log could not be processed"
        hint={jobFailureHint(error)}
        action={canWrite ? <ButtonLink to="/upload" variant="secondary" size="small">Upload another file</ButtonLink> : undefined}
      />
    );
  }
  return <ReadyView dataset={dataset} />;
}

function Meta({ dataset: d }: { dataset: Dataset }) {
  return (
    <div className={styles.meta}>
      <span>{d.format ?? "format not detected yet"}</span>
      <span>{formatBytes(d.size_bytes)}</span>
      <span>uploaded by {uploaderName(d.uploaded_by)}</span>
      <span>{formatDateTime(d.created_at)}</span>
    </div>
  );
}

export function DatasetDetail({ datasetId }: { datasetId: number }) {
  const dataset = useDataset(datasetId);
  const state = useLocation().state as DatasetLocationState | null;
  const back = <Link to="/datasets">← Datasets</Link>;
  useDocumentTitle(dataset.data?.name ?? null);

  if (dataset.isPending) return <Loading label="Loading dataset…" />;
  if (dataset.isError) {
    const missing = isNotFound(dataset.error);
    const hint = missing ? "It may have been deleted, or it belongs to a workspace you are not a member of." : undefined;
    return (
      <>
        <PageHeader title={`Dataset ${datasetId}`} back={back} />
        <ErrorBanner
          error={dataset.error}
          title={missing ? "Dataset not found" : "Could not load the dataset"}
          hint={hint}
        />
      </>
    );
  }
  return (
    <div className={styles.stack}>
      <PageHeader title={dataset.data.name} titleTestId="dataset-title" back={back} subtitle={<Meta dataset={dataset.data} />} />
      {state?.duplicate === true && (
        <Banner tone="info" title="Already uploaded" testId="duplicate-notice">
          This file was already uploaded to this workspace on {formatDateTime(dataset.data.created_at)}. Showing that
          dataset; nothing new was stored.
        </Banner>
      )}
      <Body dataset={dataset.data} />
    </div>
  );
}
