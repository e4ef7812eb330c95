import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { isNotFound } from "../../api/client";
import { Badge } from "../../components/Badge";
import { Button, ButtonLink } from "../../components/Button";
import { Card } from "../../components/Card";
import { EmptyState } from "../../components/EmptyState";
import { ErrorBanner } from "../../components/ErrorBanner";
import { PageHeader } from "../../components/PageHeader";
import { Loading } from "../../components/Spinner";
import { formatDateTime } from "../../lib/format";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { exportUrl } from "./api";
import { useDeleteReport, useReport } from "./queries";
import { ReportBody } from "./ReportItemView";
import { ReportEditor } from "./ReportEditor";
import styles from "./Reports.module.css";
import { SharePanel } from "./SharePanel";
import type { Report } from "./types";

function Exports({ report }: { report: Report }) {
  const formats = [
    ["html", "Export HTML"],
    ["json", "JSON"],
    ["csv", "CSV (zip)"],
  ] as const;
  return (
    <>
      {formats.map(([format, label]) => (
        <ButtonLink key={format} to={exportUrl(report.id, format)} reloadDocument download variant="secondary" size="small" data-testid={`export-${format}`}>
          {label}
        </ButtonLink>
      ))}
    </>
  );
}

function Actions({ report, editing, onEdit, onShare }: { report: Report; editing: boolean; onEdit: () => void; onShare: () => void }) {
  const remove = useDeleteReport(report.id);
  const navigate = useNavigate();
  const confirmDelete = () => {
    if (window.confirm(`Delete the report “${report.title}”? Its public links stop working.`)) {
      remove.mutate(undefined, { onSuccess: () => void navigate("/reports") });
    }
  };
  return (
    <div className={styles.row}>
      <Exports report={report} />
      <Button variant="secondary" size="small" onClick={onShare} data-testid="share-toggle">
        Share
      </Button>
      {report.can_edit && (
        <>
          <Button size="small" onClick={onEdit} data-testid="edit-toggle">
            {editing ? "Done editing" : "Edit"}
          </Button>
          <Button variant="danger" size="small" onClick={confirmDelete} disabled={remove.isPending}>
            Delete
          </Button>
        </>
      )}
    </div>
  );
}

export function ReportPage({ reportId }: { reportId: number }) {
  const report = useReport(reportId);
  const [params, setParams] = useSearchParams();
  const [sharing, setSharing] = useState(false);
  useDocumentTitle(report.data?.title ?? "Report");
  if (report.isPending) return <Loading label="Loading the report…" />;
  if (report.isError) {
    if (isNotFound(report.error)) {
      return (
        <Card>
          <EmptyState title="Report not found" action={<ButtonLink to="/reports">All reports</ButtonLink>}>
            It was deleted, is private to its author, or belongs to another workspace.
          </EmptyState>
        </Card>
      );
    }
    return <ErrorBanner error={report.error} title="Could not load the report" hint="Reload the page to try again." />;
  }
  const r = report.data;
  const editing = r.can_edit && params.get("edit") === "1";
  const subtitle = (
    <>
      {r.visibility === "workspace" ? <Badge tone="info">workspace</Badge> : <Badge tone="neutral">only you</Badge>} {r.items.length} items · updated {formatDateTime(r.updated_at)}
    </>
  );
  return (
    <>
      <PageHeader
        title={r.title}
        titleTestId="report-title"
        subtitle={subtitle}
        back={<Link to="/reports">← Reports</Link>}
        actions={<Actions report={r} editing={editing} onEdit={() => setParams(editing ? {} : { edit: "1" })} onShare={() => setSharing((s) => !s)} />}
      />
      <div className={styles.stack}>
        {sharing && <SharePanel report={r} />}
        {editing && <ReportEditor report={r} />}
        {r.items.length === 0 && r.notes_html === "" ? (
          <Card>
            <EmptyState title="This report is empty">
              {r.can_edit ? "Press Edit to write notes and add charts from your results." : "Its author has not added anything yet."}
            </EmptyState>
          </Card>
        ) : (
          <ReportBody notesHtml={r.notes_html} items={r.items} />
        )}
      </div>
    </>
  );
}
