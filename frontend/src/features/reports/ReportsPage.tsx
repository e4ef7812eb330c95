import { useState, type SyntheticEvent } from "react";
import { Link, useNavigate } from "react-router";
import { uploaderName } from "../../api/models";
import { Badge } from "../../components/Badge";
import { Button, ButtonLink } from "../../components/Button";
import { Card } from "../../components/Card";
import { EmptyState } from "../../components/EmptyState";
import { ErrorBanner } from "../../components/ErrorBanner";
import { PageHeader } from "../../components/PageHeader";
import { Loading } from "../../components/Spinner";
import { Table, type Column } from "../../components/Table";
import { TextField } from "../../components/TextField";
import { formatDateTime } from "../../lib/format";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useCanWrite } from "../workspaces/useRole";
import { useWorkspace } from "../workspaces/workspaceContext";
import { useCreateReport, useReports } from "./queries";
import styles from "./Reports.module.css";
import type { ReportSummary } from "./types";

function NewReport({ workspaceId }: { workspaceId: number | null }) {
  const [title, setTitle] = useState("");
  const create = useCreateReport(workspaceId);
  const navigate = useNavigate();
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    create.mutate(title.trim(), { onSuccess: (r) => void navigate(`/reports/${r.id}?edit=1`) });
  };
  return (
    <Card title="New report" subtitle="Name it, then add charts and numbers from analyses, characterizations, simulations and traffic summaries.">
      <form onSubmit={submit} className={`${styles.row} ${styles.bottom}`}>
        <div className={styles.grow}>
          <TextField label="Title" value={title} onChange={(e) => setTitle(e.target.value)} placeholder="Capacity review, release 4.2" maxLength={200} required />
        </div>
        <Button type="submit" disabled={title.trim() === "" || create.isPending}>
          {create.isPending ? "Creating…" : "Create report"}
        </Button>
      </form>
      {create.isError && <ErrorBanner error={create.error} title="Could not create the report" />}
    </Card>
  );
}

function columns(picked: number[], toggle: (id: number) => void): Column<ReportSummary>[] {
  return [
    {
      key: "pick",
      header: <span className={styles.muted}>Compare</span>,
      width: "90px",
      render: (r) => (
        <input type="checkbox" aria-label={`Compare ${r.title}`} checked={picked.includes(r.id)} onChange={() => toggle(r.id)} />
      ),
    },
    { key: "title", header: "Title", render: (r) => <Link to={`/reports/${r.id}`}>{r.title}</Link> },
    { key: "items", header: "Items", align: "right", render: (r) => r.item_count },
    {
      key: "visibility",
      header: "Shared with",
      render: (r) => (r.visibility === "workspace" ? <Badge tone="info">workspace</Badge> : <Badge tone="neutral">only you</Badge>),
    },
    { key: "by", header: "Author", render: (r) => uploaderName(r.created_by) },
    { key: "updated", header: "Updated", align: "right", render: (r) => formatDateTime(r.updated_at) },
  ];
}

export function ReportsPage() {
  const { current } = useWorkspace();
  const list = useReports(current?.id ?? null);
  const [picked, setPicked] = useState<number[]>([]);
  const canWrite = useCanWrite();
  useDocumentTitle("Reports");
  const toggle = (id: number) => setPicked((old) => (old.includes(id) ? old.filter((p) => p !== id) : [...old.slice(-1), id]));
  const compare =
    picked.length === 2 ? (
      <ButtonLink to={`/reports/compare?a=${picked[0]}&b=${picked[1]}`} variant="secondary">
        Compare the two selected
      </ButtonLink>
    ) : (
      <ButtonLink to="/reports/compare" variant="secondary">
        Compare…
      </ButtonLink>
    );
  return (
    <>
      <PageHeader title="Reports" subtitle="Saved views over results, shared with your workspace or by a public link." actions={compare} />
      <div className={styles.stack}>
        {canWrite && <NewReport workspaceId={current?.id ?? null} />}
        {list.isPending && <Loading label="Loading reports…" />}
        {list.isError && <ErrorBanner error={list.error} title="Could not load the reports" hint="Reload the page to try again." />}
        {list.data !== undefined &&
          (list.data.items.length === 0 ? (
            <Card>
              <EmptyState title="No reports yet" testId="reports-empty">
                Create one above, then add the knee curve of an analysis, a simulation's VM steps or a dataset's traffic.
              </EmptyState>
            </Card>
          ) : (
            <Card flush>
              <Table columns={columns(picked, toggle)} rows={list.data.items} rowKey={(r) => r.id} caption="Reports" testId="reports-table" />
            </Card>
          ))}
      </div>
    </>
  );
}
