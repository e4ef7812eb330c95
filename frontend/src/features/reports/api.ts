/** The REST calls of the reports feature. */
import { api, unwrap } from "../../api/client";
import type {
  Comparison,
  ItemIn,
  ItemKind,
  PublicReport,
  Report,
  ReportPage,
  ReportUpdate,
  ShareLink,
  ShareLinkCreated,
} from "./types";

const path = (reportId: number) => ({ params: { path: { report_id: reportId } } });

export function listReports(workspaceId: number | null): Promise<ReportPage> {
  const query = workspaceId === null ? { limit: 200 } : { workspace_id: workspaceId, limit: 200 };
  return unwrap(api.GET("/api/v1/reports", { params: { query } }));
}

export function getReport(reportId: number): Promise<Report> {
  return unwrap(api.GET("/api/v1/reports/{report_id}", path(reportId)));
}

export function createReport(workspaceId: number | null, title: string, items: ItemIn[] = []): Promise<Report> {
  return unwrap(api.POST("/api/v1/reports", { body: { title, workspace_id: workspaceId, items, notes_md: "", visibility: "workspace" } }));
}

export function updateReport(reportId: number, body: ReportUpdate): Promise<Report> {
  return unwrap(api.PATCH("/api/v1/reports/{report_id}", { ...path(reportId), body }));
}

export async function deleteReport(reportId: number): Promise<void> {
  await unwrap(api.DELETE("/api/v1/reports/{report_id}", path(reportId)));
}

export function addItem(reportId: number, item: ItemIn): Promise<Report> {
  return unwrap(api.POST("/api/v1/reports/{report_id}/items", { ...path(reportId), body: item }));
}

export function previewNotes(notesMd: string): Promise<string> {
  return unwrap(api.POST("/api/v1/reports/notes-preview", { body: { notes_md: notesMd } })).then((r) => r.notes_html);
}

export function listLinks(reportId: number): Promise<ShareLink[]> {
  return unwrap(api.GET("/api/v1/reports/{report_id}/links", path(reportId)));
}

export function createLink(reportId: number, expiresAt: string | null): Promise<ShareLinkCreated> {
  return unwrap(api.POST("/api/v1/reports/{report_id}/links", { ...path(reportId), body: { expires_at: expiresAt } }));
}

export function revokeLink(reportId: number, linkId: number): Promise<ShareLink> {
  return unwrap(
    api.DELETE("/api/v1/reports/{report_id}/links/{link_id}", { params: { path: { report_id: reportId, link_id: linkId } } }),
  );
}

export function getPublicReport(token: string): Promise<PublicReport> {
  return unwrap(api.GET("/api/v1/public/reports/{token}", { params: { path: { token } } }));
}

export function compareReports(a: number, b: number): Promise<Comparison> {
  return unwrap(api.GET("/api/v1/comparisons/reports", { params: { query: { a, b } } }));
}

export function compareRuns(kind: ItemKind, a: number, b: number): Promise<Comparison> {
  return unwrap(api.GET("/api/v1/comparisons/runs", { params: { query: { kind, a, b } } }));
}

export function exportUrl(reportId: number, format: "html" | "json" | "csv"): string {
  return `/api/v1/reports/${reportId}/export?format=${format}`;
}

export function publicExportUrl(token: string, format: "html" | "json" | "csv"): string {
  return `/api/v1/public/reports/${encodeURIComponent(token)}/export?format=${format}`;
}
