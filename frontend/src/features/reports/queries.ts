import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { listAnalyses, listDatasets } from "../../api/endpoints";
import { formatDateTime } from "../../lib/format";
import * as reports from "./api";
import type { ItemIn, ItemKind, Report, ReportUpdate } from "./types";

export const reportKeys = {
  all: ["reports"] as const,
  list: (workspaceId: number | null) => ["reports", "list", workspaceId] as const,
  detail: (id: number) => ["reports", "detail", id] as const,
  links: (id: number) => ["reports", "links", id] as const,
  sources: (kind: ItemKind, workspaceId: number | null, datasetId: number | null) =>
    ["reports", "sources", kind, workspaceId, datasetId] as const,
};

export function useReports(workspaceId: number | null) {
  return useQuery({ queryKey: reportKeys.list(workspaceId), queryFn: () => reports.listReports(workspaceId) });
}

export function useReport(reportId: number) {
  return useQuery({ queryKey: reportKeys.detail(reportId), queryFn: () => reports.getReport(reportId) });
}

/** Mutations that answer with the whole report put it in the cache and refresh the list. */
function useReportMutation<Args>(call: (args: Args) => Promise<Report>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (report) => {
      client.setQueryData(reportKeys.detail(report.id), report);
      void client.invalidateQueries({ queryKey: ["reports", "list"] });
    },
  });
}

export function useCreateReport(workspaceId: number | null) {
  return useReportMutation((title: string) => reports.createReport(workspaceId, title));
}

export function useUpdateReport(reportId: number) {
  return useReportMutation((body: ReportUpdate) => reports.updateReport(reportId, body));
}

export function useAddItem(reportId: number) {
  return useReportMutation((item: ItemIn) => reports.addItem(reportId, item));
}

export type ReportTarget = { reportId: number } | { title: string };

/** Appends an item to a report, or creates the report with it (one request: no empty report is
 * left behind when the item is refused). */
export function useAddToReport(workspaceId: number | null) {
  return useReportMutation(({ target, item }: { target: ReportTarget; item: ItemIn }) =>
    "reportId" in target ? reports.addItem(target.reportId, item) : reports.createReport(workspaceId, target.title, [item]),
  );
}

export function useDeleteReport(reportId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => reports.deleteReport(reportId),
    onSuccess: () => void client.invalidateQueries({ queryKey: ["reports", "list"] }),
  });
}

export function useLinks(reportId: number) {
  return useQuery({ queryKey: reportKeys.links(reportId), queryFn: () => reports.listLinks(reportId) });
}

export function useLinkMutations(reportId: number) {
  const client = useQueryClient();
  const refresh = () => void client.invalidateQueries({ queryKey: reportKeys.links(reportId) });
  return {
    create: useMutation({ mutationFn: (expiresAt: string | null) => reports.createLink(reportId, expiresAt), onSuccess: refresh }),
    revoke: useMutation({ mutationFn: (linkId: number) => reports.revokeLink(reportId, linkId), onSuccess: refresh }),
  };
}

export interface SourceOption {
  id: number;
  label: string;
}

async function sourceOptions(kind: ItemKind, workspaceId: number | null, datasetId: number | null): Promise<SourceOption[]> {
  if (kind === "simulation" || kind === "sweep") {
    const query = workspaceId === null ? { limit: 200 } : { workspace_id: workspaceId, limit: 200 };
    const page = await unwrap(api.GET("/api/v1/simulations", { params: { query } }));
    const wanted = kind === "sweep" ? "sweep" : "run";
    return page.items.filter((s) => s.job?.status === "succeeded" && s.kind === wanted).map((s) => ({ id: s.id, label: `${s.name} (#${s.id})` }));
  }
  if (datasetId === null) return [];
  if (kind === "capacity" || kind === "sct") {
    const page = await listAnalyses(datasetId, 200);
    const name = kind === "sct" ? "SCT analysis" : "Analysis";
    return page.items
      .filter((a) => a.kind === kind && a.job?.status === "succeeded")
      .map((a) => ({ id: a.id, label: `${name} #${a.id} (${formatDateTime(a.created_at)})` }));
  }
  const path = { params: { path: { dataset_id: datasetId }, query: { limit: 200 } } };
  const page = await unwrap(api.GET("/api/v1/datasets/{dataset_id}/characterizations", path));
  return page.items.filter((c) => c.job?.status === "succeeded").map((c) => ({ id: c.id, label: `Characterization #${c.id} (${formatDateTime(c.created_at)})` }));
}

/** What can be added: finished results of the chosen kind (of a dataset, except simulations). */
export function useSources(kind: ItemKind, workspaceId: number | null, datasetId: number | null) {
  return useQuery({
    queryKey: reportKeys.sources(kind, workspaceId, datasetId),
    queryFn: () => sourceOptions(kind, workspaceId, datasetId),
    enabled: kind !== "traffic",
  });
}

export function useReadyDatasets(workspaceId: number | null) {
  return useQuery({
    queryKey: ["reports", "datasets", workspaceId],
    queryFn: async () => (await listDatasets(workspaceId, {}, 200)).items.filter((d) => d.status === "ready"),
  });
}
