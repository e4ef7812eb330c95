/**
 * "Add to report" for a result page: pick one of the workspace's reports (or name a new one),
 * append the result as an item (its figures and charts are copied now), then link to the
 * report. Hidden for viewers (they cannot edit reports), and for an analysis until it has
 * succeeded; an analysis with several request classes (or servers) asks which one.
 */
import { useState } from "react";
import { Link } from "react-router";
import { Banner } from "../../components/Banner";
import { Button } from "../../components/Button";
import { ErrorBanner } from "../../components/ErrorBanner";
import { useAnalysis } from "../capacity/queries";
import { useCanWrite } from "../workspaces/useRole";
import { useWorkspace } from "../workspaces/workspaceContext";
import { useAddToReport, useReports } from "./queries";
import styles from "./Reports.module.css";
import { viewsOf } from "./reportMath";
import type { ItemKind } from "./types";

const NEW = "new";

export interface AddToReportProps {
  kind: ItemKind;
  /** The analysis, characterization or simulation id; the dataset id for traffic. */
  sourceId: number;
  /** The new report's suggested title. */
  suggestedTitle?: string;
  /** A characterization's tab (workload, traffic or latency); analyses ask for their class. */
  view?: string;
}

const ANALYSIS_KINDS: ItemKind[] = ["capacity", "sct"];

export function AddToReport(props: AddToReportProps) {
  const canWrite = useCanWrite();
  const [open, setOpen] = useState(false);
  const isAnalysis = ANALYSIS_KINDS.includes(props.kind);
  const analysis = useAnalysis(canWrite && isAnalysis ? props.sourceId : null);
  if (!canWrite) return null;
  if (isAnalysis && analysis.data?.job?.status !== "succeeded") return null;
  const views = isAnalysis ? viewsOf(props.kind, analysis.data?.result) : [];
  return (
    <div className={styles.addToReport} data-testid="add-to-report">
      {!open && (
        <Button variant="secondary" size="small" onClick={() => setOpen(true)} data-testid="add-to-report-open">
          Add to report
        </Button>
      )}
      {open && <AddToReportForm {...props} views={views} onClose={() => setOpen(false)} />}
    </div>
  );
}

type FormProps = AddToReportProps & { views: string[]; onClose: () => void };

function AddToReportForm({ kind, sourceId, views, suggestedTitle, view: fixedView, onClose }: FormProps) {
  const workspaceId = useWorkspace().current?.id ?? null;
  const reports = useReports(workspaceId);
  const [choice, setChoice] = useState<string>("");
  const [title, setTitle] = useState(suggestedTitle ?? "");
  const [view, setView] = useState<string>(fixedView ?? views[0] ?? "");
  const add = useAddToReport(workspaceId);
  const existing = reports.data?.items ?? [];
  const picked = choice === "" ? (existing.length > 0 ? String(existing[0]?.id) : NEW) : choice;
  const ready = picked !== NEW || title.trim() !== "";
  const submit = () => {
    const target = picked === NEW ? { title: title.trim() } : { reportId: Number(picked) };
    add.mutate({ target, item: { kind, source_id: sourceId, view: view === "" ? null : view } });
  };
  if (add.isSuccess) {
    return (
      <Banner tone="success" title="Added to the report" testId="add-to-report-done">
        <Link to={`/reports/${add.data.id}`} data-testid="add-to-report-link">
          Open “{add.data.title}”
        </Link>{" "}
        ({add.data.items.length} {add.data.items.length === 1 ? "item" : "items"}) ·{" "}
        <button type="button" className={styles.linkButton} onClick={() => (add.reset(), onClose())}>
          close
        </button>
      </Banner>
    );
  }
  return (
    <div className={styles.stack}>
      <div className={styles.row}>
        <label className={styles.field}>
          Report
          <select value={picked} onChange={(e) => setChoice(e.target.value)} data-testid="add-to-report-select" disabled={reports.isPending}>
            {existing.map((r) => (
              <option key={r.id} value={r.id}>
                {r.title} ({r.item_count} {r.item_count === 1 ? "item" : "items"})
              </option>
            ))}
            <option value={NEW}>New report…</option>
          </select>
        </label>
        {views.length > 1 && (
          <label className={styles.field}>
            {kind === "sct" ? "Server" : "Request class"}
            <select value={view} onChange={(e) => setView(e.target.value)} data-testid="add-to-report-view">
              {views.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </label>
        )}
        {picked === NEW && (
          <label className={styles.field}>
            Title
            <input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} data-testid="add-to-report-title" />
          </label>
        )}
        <Button size="small" onClick={submit} disabled={!ready || add.isPending} data-testid="add-to-report-submit">
          {add.isPending ? "Adding…" : "Add"}
        </Button>
        <Button variant="ghost" size="small" onClick={onClose}>
          Cancel
        </Button>
      </div>
      {reports.isError && <ErrorBanner error={reports.error} title="Could not list the reports" />}
      {add.isError && <ErrorBanner error={add.error} title="Could not add it to the report" />}
    </div>
  );
}
