import { useEffect, useRef, useState } from "react";
import type { RequestRow, SliceParams } from "../../api/models";
import { Button } from "../../components/Button";
import { ErrorBanner } from "../../components/ErrorBanner";
import { Loading } from "../../components/Spinner";
import { Table, type Column } from "../../components/Table";
import { formatBytes, formatCount, formatLatency } from "../../lib/format";
import { useRequestPage } from "./queries";
import styles from "./RequestsDrawer.module.css";

export const PAGE_SIZE = 50;

/** "2015-01-13 22:29:53.125" (UTC, milliseconds only when there are some). */
function shortTime(iso: string): string {
  return new Date(Date.parse(iso)).toISOString().replace("T", " ").replace(".000Z", "").replace("Z", "");
}

const COLUMNS: Column<RequestRow>[] = [
  { key: "ts", header: "Time (UTC)", render: (r) => (r.ts === null ? "—" : shortTime(r.ts)), mono: true },
  { key: "method", header: "Method", render: (r) => r.method ?? "—" },
  { key: "path", header: "Path", render: (r) => <span className={styles.path}>{`${r.path ?? "—"}${r.query ? `?${r.query}` : ""}`}</span>, mono: true },
  { key: "status", header: "Status", render: (r) => r.status ?? "—", align: "right" },
  { key: "latency", header: "Latency", render: (r) => (r.latency_s === null || r.latency_s === undefined ? "—" : formatLatency(r.latency_s)), align: "right" },
  { key: "bytes", header: "Size", render: (r) => (r.bytes === null || r.bytes === undefined ? "—" : formatBytes(r.bytes)), align: "right" },
  { key: "client", header: "Client", render: (r) => r.client ?? "—", mono: true },
];

interface RequestsDrawerProps {
  datasetId: number;
  /** The slice whose requests are listed (range and filters). */
  slice: SliceParams;
  title: string;
  onClose: () => void;
}

/** The requests behind a point, a bar or the page's slice, a page at a time, read by the API
 * from the request table. */
export function RequestsDrawer({ datasetId, slice, title, onClose }: RequestsDrawerProps) {
  // the pages after the first: each one's token and the place of its first request
  const [pages, setPages] = useState<{ token: string; first: number }[]>([]);
  const current = pages[pages.length - 1];
  const token = current?.token;
  const page = useRequestPage(datasetId, { ...slice, limit: PAGE_SIZE, ...(token === undefined ? {} : { page_token: token }) });
  const drawer = useRef<HTMLElement>(null);
  useEffect(() => drawer.current?.querySelector("button")?.focus(), []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  const data = page.data;
  const first = current?.first ?? 0;
  return (
    <aside ref={drawer} className={styles.drawer} role="dialog" aria-label={`Requests: ${title}`} data-testid="requests-drawer">
      <header className={styles.head}>
        <div>
          <h2 className={styles.title}>Requests</h2>
          <p className={styles.subtitle}>{title}</p>
        </div>
        <Button variant="ghost" size="small" onClick={onClose} aria-label="Close the requests">
          Close
        </Button>
      </header>
      {page.isPending && <Loading label="Reading the requests…" />}
      {page.isError && <ErrorBanner error={page.error} title="Could not read the requests" />}
      {data !== undefined && (
        <>
          <p className={styles.count} data-testid="requests-count">
            {data.total === 0
              ? "No request in this slice."
              : `${formatCount(first + 1)}–${formatCount(first + data.items.length)} of ${formatCount(data.total)} requests, in the log's order`}
          </p>
          <div className={styles.table}>
            <Table columns={COLUMNS} rows={data.items} rowKey={(r) => r.row} caption="Requests" testId="requests-table" />
          </div>
          <footer className={styles.pager}>
            <Button variant="secondary" size="small" disabled={pages.length === 0} onClick={() => setPages(pages.slice(0, -1))}>
              Previous
            </Button>
            <Button
              variant="secondary"
              size="small"
              disabled={data.next_page_token === null || page.isPlaceholderData}
              onClick={() => data.next_page_token !== null && setPages([...pages, { token: data.next_page_token, first: first + data.items.length }])}
              data-testid="requests-next"
            >
              Next
            </Button>
          </footer>
        </>
      )}
    </aside>
  );
}
