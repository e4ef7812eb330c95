import { useState, type SyntheticEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { isJobActive, uploaderName, type Dataset, type DatasetSort } from "../../api/models";
import { Badge } from "../../components/Badge";
import { Button, ButtonLink } from "../../components/Button";
import { Card } from "../../components/Card";
import { EmptyState } from "../../components/EmptyState";
import { ErrorBanner } from "../../components/ErrorBanner";
import { PageHeader } from "../../components/PageHeader";
import { ProgressBar } from "../../components/ProgressBar";
import { Loading } from "../../components/Spinner";
import { Table, type Column } from "../../components/Table";
import { TextField } from "../../components/TextField";
import { formatCount, formatDateTime, formatDuration, formatPercent } from "../../lib/format";
import { useDebounced } from "../../lib/useDebounced";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { describeJob } from "../jobs/describeJob";
import { useCanWrite } from "../workspaces/useRole";
import { useWorkspace } from "../workspaces/workspaceContext";
import { DatasetStatus } from "./DatasetStatus";
import { keptBy, sizeText, sourceCaption } from "./liveSource";
import styles from "./DatasetsPage.module.css";
import { useDatasets, useDeleteDataset, useRenameDataset } from "./queries";

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

const SORTS: { value: DatasetSort; label: string }[] = [
  { value: "newest", label: "Newest first" },
  { value: "oldest", label: "Oldest first" },
  { value: "name", label: "Name" },
  { value: "requests", label: "Most requests" },
  { value: "span", label: "Longest time span" },
  { value: "size", label: "Largest file" },
];
const isSort = (value: string | null): value is DatasetSort => SORTS.some((s) => s.value === value);

const NOT_INGESTED = <span className={styles.muted} title="Known once the log is ingested">—</span>;

interface NameCellProps {
  dataset: Dataset;
  renaming: boolean;
  /** Rename and delete, for editors and owners. */
  actions: { onRename: () => void; onDelete: () => void } | null;
  onDone: () => void;
}

function NameCell({ dataset, renaming, actions, onDone }: NameCellProps) {
  const [name, setName] = useState(dataset.name);
  const rename = useRenameDataset();
  if (!renaming) {
    return (
      <div className={styles.nameCell}>
        <span className={styles.nameLine}>
          <Link to={`/datasets/${dataset.id}`} className={styles.name}>
            {dataset.name}
          </Link>
          {dataset.synthetic && <Badge tone="info">synthetic</Badge>}
          {dataset.source?.live === true && <Badge tone="success">live</Badge>}
        </span>
        {dataset.source != null && (
          <span className={styles.progressCaption} data-testid="dataset-source">
            {sourceCaption(dataset.source)}
          </span>
        )}
        {dataset.format !== null && <span className={styles.progressCaption}>{dataset.format}</span>}
        {actions !== null && (
          <span className={styles.rowActions}>
            <Button variant="ghost" size="small" onClick={actions.onRename} aria-label={`Rename ${dataset.name}`}>
              Rename
            </Button>
            <Button variant="ghost" size="small" onClick={actions.onDelete} aria-label={`Delete ${dataset.name}`}>
              Delete
            </Button>
          </span>
        )}
      </div>
    );
  }
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    rename.mutate({ id: dataset.id, name }, { onSuccess: onDone });
  };
  return (
    <form className={styles.rename} onSubmit={submit} aria-label={`Rename ${dataset.name}`}>
      <TextField label="New name" value={name} onChange={(e) => setName(e.target.value)} maxLength={255} required autoFocus />
      <div className={styles.renameActions}>
        <Button type="submit" size="small" disabled={rename.isPending || name.trim() === ""}>
          Save
        </Button>
        <Button type="button" size="small" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
      {rename.isError && <ErrorBanner error={rename.error} title="The dataset was not renamed" />}
    </form>
  );
}

function SpanCell({ dataset }: { dataset: Dataset }) {
  if (dataset.span_s === null || dataset.span_s === undefined) return NOT_INGESTED;
  return (
    <div className={styles.stacked}>
      <span className={styles.nowrap}>{formatDuration(dataset.span_s)}</span>
      {dataset.first_request_at && <span className={`${styles.progressCaption} ${styles.nowrap}`}>from {formatDateTime(dataset.first_request_at)}</span>}
    </div>
  );
}

function latencyText(dataset: Dataset) {
  if (dataset.has_latency === null || dataset.has_latency === undefined) return NOT_INGESTED;
  return dataset.has_latency ? "yes" : <span className={styles.muted}>not recorded</span>;
}

/** The datasets ticked for comparison, in the order they were ticked. */
interface Picking {
  picked: number[];
  toggle: (id: number) => void;
}

function PickCell({ dataset, picking }: { dataset: Dataset; picking: Picking }) {
  if (dataset.status !== "ready") return null;
  return (
    <input
      type="checkbox"
      className={styles.pick}
      checked={picking.picked.includes(dataset.id)}
      onChange={() => picking.toggle(dataset.id)}
      aria-label={`Compare ${dataset.name}`}
    />
  );
}

function columns(canWrite: boolean, renaming: number | null, setRenaming: (id: number | null) => void, onDelete: (d: Dataset) => void, picking: Picking): Column<Dataset>[] {
  const actions = (d: Dataset) => (canWrite ? { onRename: () => setRenaming(d.id), onDelete: () => onDelete(d) } : null);
  return [
    { key: "pick", header: <span className="visually-hidden">Compare</span>, render: (d) => <PickCell dataset={d} picking={picking} />, width: "2.5rem" },
    { key: "name", header: "Name", render: (d) => <NameCell dataset={d} renaming={renaming === d.id} actions={actions(d)} onDone={() => setRenaming(null)} /> },
    { key: "status", header: "Status", render: (d) => <StatusCell dataset={d} /> },
    { key: "requests", header: "Requests", render: (d) => (d.request_count === null || d.request_count === undefined ? NOT_INGESTED : formatCount(d.request_count)), align: "right" },
    { key: "span", header: "Time span", render: (d) => <SpanCell dataset={d} /> },
    { key: "latency", header: "Latency", render: latencyText },
    { key: "size", header: "Size", render: (d) => <span className={styles.nowrap}>{sizeText(d) ?? <span className={styles.muted}>no file</span>}</span>, align: "right" },
    {
      key: "uploaded",
      header: "Uploaded",
      render: (d) => (
        <div className={styles.stacked}>
          <span className={styles.nowrap}>{formatDateTime(d.created_at)}</span>
          <span className={styles.progressCaption}>{d.source != null ? keptBy(d.source) : `by ${uploaderName(d.uploaded_by)}`}</span>
        </div>
      ),
    },
  ];
}

interface ToolbarProps {
  search: string;
  sort: DatasetSort;
  onSearch: (s: string) => void;
  onSort: (s: DatasetSort) => void;
  picked: number[];
}

function Toolbar({ search, sort, onSearch, onSort, picked }: ToolbarProps) {
  const navigate = useNavigate();
  return (
    <div className={styles.toolbar} role="search">
      <TextField label="Search by name" type="search" value={search} onChange={(e) => onSearch(e.target.value)} placeholder="e.g. checkout" />
      <div className={styles.sortField}>
        <label className={styles.label} htmlFor="datasets-sort">
          Sort
        </label>
        <select id="datasets-sort" className={styles.select} value={sort} onChange={(e) => onSort(e.target.value as DatasetSort)}>
          {SORTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      <Button
        variant="secondary"
        className={styles.compare}
        disabled={picked.length < 2}
        title={picked.length < 2 ? "Tick two or more datasets to compare them" : undefined}
        onClick={() => void navigate(`/datasets/compare?ids=${picked.join(",")}`)}
        data-testid="datasets-compare"
      >
        Compare{picked.length > 0 ? ` (${picked.length})` : ""}
      </Button>
    </div>
  );
}

/** Search and sort live in the URL (shareable, the back button restores them). */
function useListQuery(): { search: string; sort: DatasetSort; setSearch: (s: string) => void; setSort: (s: DatasetSort) => void } {
  const [params, setParams] = useSearchParams();
  const search = params.get("q") ?? "";
  const rawSort = params.get("sort");
  const sort = isSort(rawSort) ? rawSort : "newest";
  const update = (key: string, value: string, fallback: string) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (value === fallback) next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: key === "q" },
    );
  return { search, sort, setSearch: (s) => update("q", s, ""), setSort: (s) => update("sort", s, "newest") };
}

export function DatasetsPage() {
  const { current } = useWorkspace();
  const { search, sort, setSearch, setSort } = useListQuery();
  const debounced = useDebounced(search.trim(), 250);
  const datasets = useDatasets(current?.id ?? null, { search: debounced, sort });
  const remove = useDeleteDataset();
  const [renaming, setRenaming] = useState<number | null>(null);
  const [picked, setPicked] = useState<number[]>([]);
  const picking: Picking = { picked, toggle: (id) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id])) };
  useDocumentTitle("Datasets");
  const canWrite = useCanWrite();
  const upload = canWrite ? <ButtonLink to="/upload">Upload a log</ButtonLink> : undefined;
  const onDelete = (d: Dataset) => {
    const question = `Delete ${d.name}? Its uploaded file, parsed requests, analyses and characterizations are removed; this cannot be undone.`;
    if (window.confirm(question)) remove.mutate(d.id);
  };
  const filtered = debounced !== "";

  return (
    <>
      <PageHeader
        title="Datasets"
        subtitle={current ? `Access logs uploaded to ${current.name}` : undefined}
        actions={upload}
      />
      {datasets.isPending && <Loading label="Loading datasets…" />}
      {datasets.isError && <ErrorBanner error={datasets.error} title="Could not load the datasets" />}
      {remove.isError && <ErrorBanner error={remove.error} title="The dataset was not deleted" />}
      {datasets.data && datasets.data.items.length === 0 && !filtered && (
        <Card>
          <EmptyState title="No datasets yet" action={upload} testId="datasets-empty">
            {canWrite
              ? "Upload a web server access log (plain text or .gz) to see its traffic: request rates, status codes and latency."
              : "Editors of this workspace upload its logs; as a viewer you can read what they upload."}
          </EmptyState>
        </Card>
      )}
      {datasets.data && (datasets.data.items.length > 0 || filtered) && (
        <Card flush>
          <Toolbar search={search} sort={sort} onSearch={setSearch} onSort={setSort} picked={picked} />
          {datasets.data.items.length === 0 ? (
            <p className={styles.footer} data-testid="datasets-no-match">
              No dataset's name contains “{debounced}”.
            </p>
          ) : (
            <div className={styles.scroll}>
              <Table columns={columns(canWrite, renaming, setRenaming, onDelete, picking)} rows={datasets.data.items} rowKey={(d) => d.id} caption="Datasets" testId="datasets-table" />
            </div>
          )}
          {datasets.data.total > datasets.data.items.length && (
            <div className={styles.footer}>
              Showing {formatCount(datasets.data.items.length)} of {formatCount(datasets.data.total)}
            </div>
          )}
        </Card>
      )}
    </>
  );
}
