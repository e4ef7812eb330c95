import { Link } from "react-router";
import { isJobActive, uploaderName, type Dataset } from "../../api/models";
import { ButtonLink } from "../../components/Button";
import { Card } from "../../components/Card";
import { EmptyState } from "../../components/EmptyState";
import { ErrorBanner } from "../../components/ErrorBanner";
import { PageHeader } from "../../components/PageHeader";
import { ProgressBar } from "../../components/ProgressBar";
import { Loading } from "../../components/Spinner";
import { Table, type Column } from "../../components/Table";
import { formatBytes, formatCount, formatDateTime, formatPercent } from "../../lib/format";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { describeJob } from "../jobs/describeJob";
import { useCanWrite } from "../workspaces/useRole";
import { useWorkspace } from "../workspaces/workspaceContext";
import { DatasetStatus } from "./DatasetStatus";
import styles from "./DatasetsPage.module.css";
import { useDatasets } from "./queries";

function StatusCell({ dataset }: { dataset: Dataset }) {
  const job = dataset.job;
  if (job === null || !isJobActive(job)) return <DatasetStatus status={dataset.status} />;
  const view = describeJob(job);
  return (
    <div className={styles.status}>
      <DatasetStatus status={dataset.status} />
      <ProgressBar value={view.fraction} label={`Processing ${dataset.name}`} compact />
      <span className={styles.progressCaption}>
        {view.label} · {formatPercent(view.fraction, 0)}
      </span>
    </div>
  );
}

const COLUMNS: Column<Dataset>[] = [
  {
    key: "name",
    header: "Name",
    render: (d) => (
      <Link to={`/datasets/${d.id}`} className={styles.name}>
        {d.name}
      </Link>
    ),
  },
  { key: "status", header: "Status", render: (d) => <StatusCell dataset={d} />, width: "200px" },
  { key: "format", header: "Format", render: (d) => d.format ?? <span className={styles.muted}>—</span> },
  { key: "size", header: "Size", render: (d) => formatBytes(d.size_bytes), align: "right" },
  { key: "by", header: "Uploaded by", render: (d) => uploaderName(d.uploaded_by) },
  { key: "created", header: "Created", render: (d) => formatDateTime(d.created_at), align: "right" },
];

export function DatasetsPage() {
  const { current } = useWorkspace();
  const datasets = useDatasets(current?.id ?? null);
  useDocumentTitle("Datasets");
  const canWrite = useCanWrite();
  const upload = canWrite ? <ButtonLink to="/upload">Upload a log</ButtonLink> : undefined;

  return (
    <>
      <PageHeader
        title="Datasets"
        subtitle={current ? `Access logs uploaded to ${current.name}` : undefined}
        actions={upload}
      />
      {datasets.isPending && <Loading label="Loading datasets…" />}
      {datasets.isError && <ErrorBanner error={datasets.error} title="Could not load the datasets" />}
      {datasets.data && datasets.data.items.length === 0 && (
        <Card>
          <EmptyState title="No datasets yet" action={upload} testId="datasets-empty">
            {canWrite
              ? "Upload a web server access log (plain text or .gz) to see its traffic: request rates, status codes and latency."
              : "Editors of this workspace upload its logs; as a viewer you can read what they upload."}
          </EmptyState>
        </Card>
      )}
      {datasets.data && datasets.data.items.length > 0 && (
        <Card flush>
          <Table columns={COLUMNS} rows={datasets.data.items} rowKey={(d) => d.id} caption="Datasets" testId="datasets-table" />
          {datasets.data.total > datasets.data.items.length && (
            <div className={styles.footer}>
              Showing the newest {formatCount(datasets.data.items.length)} of {formatCount(datasets.data.total)}
            </div>
          )}
        </Card>
      )}
    </>
  );
}
