import { useState } from "react";
import { Badge } from "../../components/Badge";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import { Table, type Column } from "../../components/Table";
import { formatCount, formatDateTime } from "../../lib/format";
import { useLinkMutations, useLinks, useUpdateReport } from "./queries";
import { expiryFrom } from "./reportMath";
import styles from "./Reports.module.css";
import type { Report, ShareLink } from "./types";

const EXPIRY_DAYS = [0, 1, 7, 30, 90];
const STATUS_TONE = { active: "success", expired: "neutral", revoked: "danger" } as const;

function linkColumns(canEdit: boolean, revoke: (id: number) => void, busy: boolean): Column<ShareLink>[] {
  return [
    { key: "status", header: "Status", render: (l) => <Badge tone={STATUS_TONE[l.status]}>{l.status}</Badge> },
    { key: "created", header: "Created", render: (l) => formatDateTime(l.created_at) },
    { key: "expires", header: "Expires", render: (l) => (l.expires_at ? formatDateTime(l.expires_at) : "never") },
    { key: "views", header: "Views", align: "right", render: (l) => formatCount(l.view_count) },
    { key: "last", header: "Last viewed", render: (l) => (l.last_viewed_at ? formatDateTime(l.last_viewed_at) : "—") },
    {
      key: "revoke",
      header: "",
      render: (l) =>
        canEdit && l.status === "active" ? (
          <Button size="small" variant="danger" onClick={() => revoke(l.id)} disabled={busy} data-testid="revoke-link">
            Revoke
          </Button>
        ) : null,
    },
  ];
}

export function SharePanel({ report }: { report: Report }) {
  const links = useLinks(report.id);
  const { create, revoke } = useLinkMutations(report.id);
  const confirmRevoke = (id: number) => {
    if (window.confirm("Revoke this link? Anyone who has it can no longer open the report.")) revoke.mutate(id);
  };
  const visibility = useUpdateReport(report.id);
  const [days, setDays] = useState(0);
  const [copied, setCopied] = useState(false);
  const url = create.data ? `${window.location.origin}${create.data.path}` : null;
  const copy = () => {
    if (url !== null) void navigator.clipboard.writeText(url).then(() => setCopied(true));
  };
  const shared = report.visibility === "workspace";
  return (
    <Card title="Share" testId="share-panel">
      <div className={styles.stack}>
        <div className={styles.row}>
          <span>
            {shared ? "Every member of the workspace can read this report." : "Only you can see this report."}
          </span>
          {report.can_edit && (
            <Button size="small" variant="secondary" disabled={visibility.isPending} onClick={() => visibility.mutate({ visibility: shared ? "private" : "workspace" })}>
              {shared ? "Make it private" : "Share with the workspace"}
            </Button>
          )}
        </div>
        {report.can_edit && (
          <div className={styles.row}>
            <label className={styles.field}>
              Public link expires
              <select value={days} onChange={(e) => setDays(Number(e.target.value))} data-testid="link-expiry">
                {EXPIRY_DAYS.map((d) => (
                  <option key={d} value={d}>
                    {d === 0 ? "never (until revoked)" : `in ${d} day${d === 1 ? "" : "s"}`}
                  </option>
                ))}
              </select>
            </label>
            <Button onClick={() => (setCopied(false), create.mutate(expiryFrom(days, Date.now())))} disabled={create.isPending} data-testid="create-link">
              Create public link
            </Button>
          </div>
        )}
        {url !== null && (
          <div className={styles.row}>
            <code className={styles.link} data-testid="public-link">
              {url}
            </code>
            <Button size="small" variant="secondary" onClick={copy}>
              {copied ? "Copied" : "Copy link"}
            </Button>
            <span className={styles.muted}>Shown once: anyone with it can read the report, without signing in.</span>
          </div>
        )}
        {(create.isError || revoke.isError) && <ErrorBanner error={create.error ?? revoke.error} title="Could not change the links" />}
        {links.isError && <ErrorBanner error={links.error} title="Could not load the links" />}
        {links.data !== undefined && links.data.length > 0 && (
          <Table columns={linkColumns(report.can_edit, (id) => confirmRevoke(id), revoke.isPending)} rows={links.data} rowKey={(l) => l.id} caption="Public links" testId="links-table" />
        )}
      </div>
    </Card>
  );
}
