import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { Link, useLocation, useSearchParams } from "react-router";
import { isDatasetBusy, uploaderName, type Dataset, type Job } from "../../api/models";
import { isNotFound } from "../../api/client";
import { Badge } from "../../components/Badge";
import { Banner } from "../../components/Banner";
import { ButtonLink } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import { PageHeader } from "../../components/PageHeader";
import { Loading } from "../../components/Spinner";
import { formatDateTime, formatTimeLabel } from "../../lib/format";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { AlertsTab } from "../alerts/AlertsTab";
import { CapacitySection } from "../capacity/CapacitySection";
import { ConcurrencyTab } from "../capacity/ConcurrencySection";
import { CharacterizationGate } from "../characterization/Gate";
import { LatencyTab } from "../characterization/LatencyTab";
import { PrometheusLatency } from "../characterization/PrometheusLatency";
import { RulesTab } from "../characterization/RulesTab";
import { TrafficTab } from "../characterization/TrafficTab";
import { WorkloadTab } from "../characterization/WorkloadTab";
import { ForecastTab } from "../forecast/ForecastTab";
import { AddToReport, type AddToReportProps } from "../reports/AddToReport";
import { JobProgress } from "../jobs/JobProgress";
import { jobFailure, jobFailureHint } from "../jobs/jobFailure";
import { useJob } from "../jobs/useJob";
import { IntervalCount, NeedsALog, PrometheusOverview, PrometheusTrafficCharts } from "../sources/PrometheusTraffic";
import { useCanWrite } from "../workspaces/useRole";
import styles from "./DatasetDetail.module.css";
import { DrillContext } from "./drill";
import { sizeText, sourceCaption } from "./liveSource";
import { ParseReport } from "./ParseReport";
import { datasetKeys, useDataset, useSummary } from "./queries";
import { RequestsDrawer } from "./RequestsDrawer";
import { describeFilters, filtersBody, hasFilter, hasRange, sliceBody, sliceQuery, type DatasetSlice } from "./slice";
import { SliceBar } from "./SliceBar";
import { SummaryView } from "./SummaryView";
import { useDatasetSlice } from "./useSlice";

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

/** The tabs whose figures follow the page's time range and filters. */
const SLICED_TABS: readonly TabId[] = ["overview", "traffic", "latency", "workload", "capacity", "concurrency", "forecast"];

function tabFromSearch(value: string | null): TabId {
  return TABS.find((t) => t.id === value)?.id ?? "overview";
}

/** The tabs that read requests: a Prometheus dataset's intervals cannot give them. */
const LOG_ONLY_TABS: readonly TabId[] = ["workload", "rules", "parse", "concurrency"];

function PrometheusPanel({ tab, dataset, slice }: { tab: TabId; dataset: Dataset; slice: DatasetSlice }) {
  if (tab === "overview") return <PrometheusOverview datasetId={dataset.id} />;
  if (tab === "traffic") return <PrometheusTrafficCharts datasetId={dataset.id} />;
  if (LOG_ONLY_TABS.includes(tab)) return <NeedsALog tab={tab} />;
  return <LogPanel tab={tab} dataset={dataset} slice={slice} />;
}

function TabPanel({ tab, dataset, slice }: { tab: TabId; dataset: Dataset; slice: DatasetSlice }) {
  if (dataset.format === "prometheus") return <PrometheusPanel tab={tab} dataset={dataset} slice={slice} />;
  return <LogPanel tab={tab} dataset={dataset} slice={slice} />;
}

function LogPanel({ tab, dataset, slice }: { tab: TabId; dataset: Dataset; slice: DatasetSlice }) {
  const id = dataset.id;
  const body = sliceBody(slice);
  const filtered = filtersBody(slice); // Traffic and Latency: the filters' characterization, zoomed to the range
  switch (tab) {
    case "overview":
      return (
        <Reportable kind="traffic" sourceId={id} suggestedTitle={`Traffic of ${dataset.name}`}>
          <TrafficView dataset={dataset} />
        </Reportable>
      );
    case "traffic":
      return <CharacterizationGate key={JSON.stringify(filtered)} datasetId={id} slice={filtered}>{(r, c) => <Reportable kind="characterization" sourceId={c} view="traffic" suggestedTitle={`Traffic of ${dataset.name}`}><TrafficTab result={r} /></Reportable>}</CharacterizationGate>;
    case "latency":
      if (dataset.format === "prometheus") return <PrometheusLatency datasetId={id} />;
      return <CharacterizationGate key={JSON.stringify(filtered)} datasetId={id} slice={filtered}>{(r, c) => <Reportable kind="characterization" sourceId={c} view="latency" suggestedTitle={`Latency of ${dataset.name}`}><LatencyTab result={r} /></Reportable>}</CharacterizationGate>;
    case "workload":
      return <CharacterizationGate key={JSON.stringify(body)} datasetId={id} slice={body}>{(r, c) => <Reportable kind="characterization" sourceId={c} view="workload" suggestedTitle={`Workload of ${dataset.name}`}><WorkloadTab result={r} /></Reportable>}</CharacterizationGate>;
    case "rules":
      return <RulesTab datasetId={id} />;
    case "parse":
      return <ParseReport dataset={dataset} />;
    case "capacity":
      return <CapacitySection datasetId={id} slice={body} />;
    case "concurrency":
      return <ConcurrencyTab dataset={dataset} slice={body} />;
    case "forecast":
      return <ForecastTab datasetId={id} slice={sliceQuery(slice)} />;
    case "alerts":
      return <AlertsTab datasetId={id} />;
  }
}

function drillTitle(from: number | null, to: number | null, slice: DatasetSlice, whole = "the whole log"): string {
  const range = from === null && to === null ? whole : `${formatTimeLabel(from ?? 0)} → ${to === null ? "the end" : formatTimeLabel(to)}`;
  const filters = describeFilters(slice);
  return filters.length === 0 ? range : `${range}, ${filters.join(", ")}`;
}

/** The dataset's views as tabs; the tab is in the URL (?tab=latency), Overview without one,
 * beside the time range and filters every tab follows (?from=…&to=…&path=…&status=…). */
function ReadyView({ dataset }: { dataset: Dataset }) {
  const [search, setSearch] = useSearchParams();
  const tab = tabFromSearch(search.get("tab"));
  const [slice, setSlice] = useDatasetSlice();
  const [drill, setDrill] = useState<{ from: number | null; to: number | null } | null>(null);
  const openDrill = useCallback((from: number, to: number) => setDrill({ from, to }), []);
  const drillSlice =
    drill === null ? null : { ...sliceQuery(slice), ...(drill.from === null ? {} : { from: drill.from }), ...(drill.to === null ? {} : { to: drill.to }) };
  const prometheus = dataset.format === "prometheus";
  const needsLog = prometheus && LOG_ONLY_TABS.includes(tab);
  const wholeLogTab = !needsLog && !SLICED_TABS.includes(tab) && (hasRange(slice) || hasFilter(slice));
  return (
    <div className={styles.stack}>
      <SliceBar slice={slice} onChange={setSlice} onList={() => setDrill({ from: slice.from, to: slice.to })} rangeOnly={prometheus} />
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
            onClick={() => setSearch((current) => withTab(current, t.id), { replace: true, state: null })}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="dataset-tabpanel" aria-labelledby={`tab-${tab}`} className={styles.stack}>
        {wholeLogTab && (
          <Banner tone="info" title="Whole log" testId="slice-not-followed">
            This tab covers the whole log: its settings and reports belong to the dataset, not to a range or filter.
          </Banner>
        )}
        <DrillContext.Provider value={openDrill}>
          {SLICED_TABS.includes(tab) && tab !== "overview" && !needsLog && (
            <p className={styles.shown} data-testid="slice-shown">
              Shows {drillTitle(slice.from, slice.to, slice, prometheus ? "every imported interval" : undefined)}
              {tab === "forecast" && hasRange(slice) ? ": the forecast reads this history only" : ""}
              {tab === "concurrency" && hasRange(slice) ? ": the range is the analysed window" : ""}
            </p>
          )}
          <TabPanel tab={tab} dataset={dataset} slice={slice} />
        </DrillContext.Provider>
      </div>
      {drill !== null && drillSlice !== null && (
        <RequestsDrawer
          key={JSON.stringify(drillSlice)}
          datasetId={dataset.id}
          slice={drillSlice}
          title={drillTitle(drill.from, drill.to, slice)}
          onClose={() => setDrill(null)}
        />
      )}
    </div>
  );
}

/** The search params with the tab set (none for Overview), the range and filters kept. */
function withTab(current: URLSearchParams, tab: TabId): URLSearchParams {
  const next = new URLSearchParams(current);
  if (tab === "overview") next.delete("tab");
  else next.set("tab", tab);
  return next;
}

/** A tab's content with "Add to report" above it (the whole log's figures, whatever the range). */
function Reportable({ children, ...report }: AddToReportProps & { children: ReactNode }) {
  return (
    <>
      <div className={styles.reportRow}>
        <AddToReport {...report} />
      </div>
      {children}
    </>
  );
}

function TrafficView({ dataset }: { dataset: Dataset }) {
  const [slice, setSlice] = useDatasetSlice();
  const summary = useSummary(dataset.id, true, sliceQuery(slice));
  const zoom = useCallback((from: number, to: number) => setSlice({ from, to }), [setSlice]);
  const reset = useCallback(() => setSlice({ from: null, to: null }), [setSlice]);
  if (summary.isPending) return <Loading label="Loading the traffic summary…" />;
  if (summary.isError) return <ErrorBanner error={summary.error} title="Could not load the traffic summary" />;
  return <SummaryView summary={summary.data} onZoom={zoom} onReset={reset} sliced={hasRange(slice) || hasFilter(slice)} updating={summary.isPlaceholderData} />;
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
      {d.format === "prometheus" ? <IntervalCount datasetId={d.id} ready={d.status === "ready"} /> : <span>{sizeText(d)}</span>}
      {d.source != null ? (
        <span data-testid="dataset-header-source">
          {d.source.live && <Badge tone="success">live</Badge>} {sourceCaption(d.source)}
        </span>
      ) : (
        <span>uploaded by {uploaderName(d.uploaded_by)}</span>
      )}
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
