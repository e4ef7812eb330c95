import { useState, type SyntheticEvent } from "react";
import { Link } from "react-router";
import { Badge } from "../../components/Badge";
import { Banner } from "../../components/Banner";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { EmptyState } from "../../components/EmptyState";
import { ErrorBanner } from "../../components/ErrorBanner";
import { PageHeader } from "../../components/PageHeader";
import { ProgressBar } from "../../components/ProgressBar";
import { Loading } from "../../components/Spinner";
import { TextField } from "../../components/TextField";
import { formatDateTime, formatDecimal, formatLatency } from "../../lib/format";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useWorkspace } from "../workspaces/workspaceContext";
import * as sources from "./api";
import { importing, useBreaches, useSourceMutation, useSources } from "./queries";
import styles from "./Sources.module.css";

type Auth = "none" | "bearer" | "basic";

/** Data sources of the current workspace: Prometheus servers whose request counter and
 * latency histogram keep a live dataset. */
export function SourcesPage() {
  useDocumentTitle("Sources");
  const { current } = useWorkspace();
  const list = useSources();
  const canEdit = current !== null && current.role !== "viewer";
  const mine = (list.data ?? []).filter((s) => current === null || s.workspace_id === current.id);
  return (
    <div className={styles.page}>
      <PageHeader
        title="Sources"
        subtitle="Prometheus servers read directly: each keeps a live dataset of per-interval request rates, error rates and latency percentiles, refreshed every few minutes."
      />
      {canEdit && <AddSourceCard workspaceId={current.id} />}
      {list.isPending && <Loading label="Loading sources" />}
      {list.error !== null && <ErrorBanner error={list.error} title="Could not load the sources" />}
      {list.data && mine.length === 0 && (
        <EmptyState title="No source yet" testId="sources-empty">
          Add a Prometheus server above; the CLI can too: <code>headroom import prometheus URL --requests SELECTOR --dataset NAME</code>.
        </EmptyState>
      )}
      {mine.length > 0 && <SourcesCard rows={mine} canEdit={canEdit} />}
    </div>
  );
}

function AddSourceCard({ workspaceId }: { workspaceId: number }) {
  const [form, setForm] = useState({
    name: "",
    base_url: "http://prometheus:9090",
    auth: "none" as Auth,
    username: "",
    secret: "",
    requests_selector: "http_requests_total",
    latency_selector: "http_request_duration_seconds_bucket",
    class_label: "",
    step_s: "60",
    window_h: "168",
  });
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value });
  const create = useSourceMutation(() =>
    sources.createSource({
      workspace_id: workspaceId,
      name: form.name.trim(),
      base_url: form.base_url.trim(),
      auth: form.auth,
      username: form.auth === "basic" ? form.username : null,
      secret: form.auth === "none" ? null : form.secret,
      requests_selector: form.requests_selector.trim(),
      latency_selector: form.latency_selector.trim() || null,
      class_label: form.class_label.trim() || null,
      error_label: "code",
      error_pattern: "5..",
      step_s: Number(form.step_s),
      window_s: Number(form.window_h) * 3600,
      refresh: true,
    }),
  );
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    create.mutate(undefined, { onSuccess: () => setForm({ ...form, name: "", secret: "" }) });
  };
  return (
    <Card title="Add a Prometheus source" subtitle="The token or password is stored encrypted and never shown again." testId="add-source">
      <form className={styles.form} onSubmit={submit} aria-label="Add a Prometheus source">
        <TextField label="Name" required maxLength={255} value={form.name} onChange={set("name")} placeholder="checkout" />
        <TextField label="Base URL" required type="url" value={form.base_url} onChange={set("base_url")} />
        <div>
          <label className={styles.label} htmlFor="source-auth">
            Authentication
          </label>
          <select id="source-auth" className={styles.select} value={form.auth} onChange={set("auth")}>
            <option value="none">none</option>
            <option value="bearer">bearer token</option>
            <option value="basic">basic auth</option>
          </select>
        </div>
        {form.auth === "basic" && <TextField label="Username" required value={form.username} onChange={set("username")} />}
        {form.auth !== "none" && (
          <TextField label={form.auth === "bearer" ? "Token" : "Password"} required type="password" autoComplete="off" value={form.secret} onChange={set("secret")} />
        )}
        <TextField label="Request counter selector" required value={form.requests_selector} onChange={set("requests_selector")} />
        <TextField label="Latency histogram (_bucket) selector" value={form.latency_selector} onChange={set("latency_selector")} />
        <TextField label="Split classes by label" value={form.class_label} onChange={set("class_label")} placeholder="route" />
        <TextField label="Step (s)" required type="number" min={1} value={form.step_s} onChange={set("step_s")} />
        <TextField label="Rolling window (hours)" required type="number" min={1} value={form.window_h} onChange={set("window_h")} />
        <div>
          <Button type="submit" disabled={create.isPending}>
            Add source
          </Button>
        </div>
        {create.error && (
          <div className={styles.wide}>
            <ErrorBanner error={create.error} title="Could not add the source" />
          </div>
        )}
      </form>
    </Card>
  );
}

function SourcesCard({ rows, canEdit }: { rows: sources.PrometheusSource[]; canEdit: boolean }) {
  const [tested, setTested] = useState<{ name: string; result: sources.ConnectionTest } | null>(null);
  const test = useSourceMutation((s: sources.PrometheusSource) => sources.testSource(s.id).then((result) => setTested({ name: s.name, result })));
  const run = useSourceMutation((id: number) => sources.importNow(id));
  const remove = useSourceMutation((id: number) => sources.deleteSource(id));
  return (
    <Card title="Prometheus sources" flush testId="sources-card">
      {tested !== null && (
        <div className={styles.result} data-testid="test-result">
          <Banner tone={tested.result.ok ? "success" : "error"} title={tested.result.ok ? `${tested.name}: connected` : `${tested.name}: not usable`}>
            {tested.result.ok
              ? `Prometheus ${tested.result.version ?? ""}; the request selector matches ${tested.result.series ?? 0} series in the window.`
              : tested.result.reason}
          </Banner>
        </div>
      )}
      {(run.error ?? remove.error) && <ErrorBanner error={run.error ?? remove.error} title="The source could not be changed" />}
      <ul className={styles.list} data-testid="sources-table" aria-label="Prometheus sources">
        {rows.map((s) => (
          <li key={s.id} className={styles.row}>
            <div className={styles.stack}>
              <strong>{s.name}</strong>
              <span className={styles.mono}>{s.base_url}</span>
              <span className={styles.muted}>
                {s.auth === "none" ? "no auth" : `${s.auth} auth${s.has_secret ? " (stored)" : ""}`} · every {s.step_s} s · {formatDecimal(s.window_s / 3600, 0)} h window
              </span>
            </div>
            <div className={styles.stack}>
              <span className={styles.mono}>{s.requests_selector}</span>
              {s.latency_selector != null && <span className={styles.mono}>{s.latency_selector}</span>}
              {s.class_label != null && <span className={styles.muted}>classes by {s.class_label}</span>}
            </div>
            <RefreshCell source={s} />
            {canEdit && (
              <span className={styles.actions}>
                <Button variant="secondary" size="small" onClick={() => test.mutate(s)} disabled={test.isPending} aria-label={`Test connection of ${s.name}`}>
                  Test connection
                </Button>
                <Button size="small" onClick={() => run.mutate(s.id)} disabled={importing(s) || run.isPending} aria-label={`Import ${s.name} now`}>
                  Import now
                </Button>
                <Button variant="ghost" size="small" onClick={() => window.confirm(`Delete the source ${s.name}? Its dataset stays, no longer refreshed.`) && remove.mutate(s.id)} aria-label={`Delete ${s.name}`}>
                  Delete
                </Button>
              </span>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}

function RefreshCell({ source }: { source: sources.PrometheusSource }) {
  const job = source.job;
  const summary = source.last_summary as Summary | null;
  return (
    <div className={styles.stack}>
      {importing(source) && job != null && <ProgressBar value={job.progress} label={`Importing ${source.name}`} caption={job.stage ?? "queued"} compact />}
      <span>
        {source.last_refresh_at != null ? formatDateTime(source.last_refresh_at) : "never"}{" "}
        {source.refresh ? <Badge tone="info">scheduled</Badge> : <Badge tone="neutral">manual</Badge>}
      </span>
      {summary != null && (
        <span className={styles.figures} data-testid="source-figures">
          <span>{formatDecimal(summary.rate_per_s.mean, 2)}/s mean</span>
          <span>{formatDecimal(summary.rate_per_s.peak, 2)}/s peak</span>
          {summary.latency_p95_s != null && <span>p95 {formatLatency(summary.latency_p95_s)}</span>}
        </span>
      )}
      {source.dataset_id != null && source.last_refresh_at != null && (
        <Link to={`/datasets/${source.dataset_id}`} className={styles.muted}>
          its dataset
        </Link>
      )}
      {source.last_refresh_at != null && <SlaCheck source={source} />}
      {source.last_error != null && (
        <span className={styles.error} role="status">
          {source.last_error}
        </span>
      )}
    </div>
  );
}

/** The SLA each refresh is checked against, and the breaches recorded (latest first). */
function SlaCheck({ source }: { source: sources.PrometheusSource }) {
  const breaches = useBreaches(source);
  if (breaches.data === undefined) return null;
  const { target, items } = breaches.data;
  const from = target?.source === "capacity_analysis" ? "capacity analysis" : "alert rule";
  return (
    <div className={styles.stack} data-testid="source-sla">
      <span className={styles.muted}>
        {target === null
          ? "SLA not checked: no target yet (run a capacity analysis on its dataset, or add a p95 alert rule)"
          : `SLA p${formatDecimal(target.percentile, 0)} ≤ ${formatLatency(target.threshold_s)} (${from}), checked on each refresh`}
      </span>
      {items.length === 0 ? (
        target !== null && <Badge tone="success">no breach</Badge>
      ) : (
        <ul className={styles.breaches} aria-label={`SLA breaches of ${source.name}`}>
          {items.slice(0, 5).map((b) => (
            <li key={b.id}>
              <Badge tone="danger">breach</Badge> p{formatDecimal(b.percentile, 0)} {formatLatency(b.observed_s)} &gt; {formatLatency(b.threshold_s)} over{" "}
              {formatDateTime(b.range_start)} – {formatDateTime(b.range_end)}
            </li>
          ))}
          {items.length > 5 && <li className={styles.muted}>and {items.length - 5} earlier</li>}
        </ul>
      )}
    </div>
  );
}

interface Summary {
  rate_per_s: { mean: number; peak: number };
  latency_p95_s: number | null;
}
