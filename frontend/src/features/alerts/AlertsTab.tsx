import { useState, type SyntheticEvent } from "react";
import { Link } from "react-router";
import { Badge, type BadgeTone } from "../../components/Badge";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import { Loading } from "../../components/Spinner";
import { Table, type Column } from "../../components/Table";
import { TextField } from "../../components/TextField";
import { formatDateTime } from "../../lib/format";
import { useWorkspace } from "../workspaces/workspaceContext";
import { useCanWrite } from "../workspaces/useRole";
import * as alerts from "./api";
import styles from "./Alerts.module.css";
import { deliveryText, KIND_LABELS, ruleText, THRESHOLD_HELP, thresholdFromField } from "./describe";
import { useAlertMutation, useChannels, useHistory, useRules } from "./queries";

const OUTCOME: Record<alerts.Evaluation["outcome"], { tone: BadgeTone; label: string }> = {
  fired: { tone: "danger", label: "fired" },
  ok: { tone: "success", label: "ok" },
  not_evaluated: { tone: "neutral", label: "not evaluated" },
};

function Outcome({ evaluation }: { evaluation: alerts.Evaluation | null }) {
  if (evaluation === null) return <span className={styles.muted}>not evaluated yet</span>;
  const o = OUTCOME[evaluation.outcome];
  return <Badge tone={o.tone}>{o.label}</Badge>;
}

function Deliveries({ items }: { items: alerts.Delivery[] }) {
  if (items.length === 0) return <span className={styles.muted}>—</span>;
  return (
    <ul className={styles.deliveries}>
      {items.map((d) => (
        <li key={d.id} className={d.status === "failed" ? styles.failed : undefined} data-testid={`delivery-${d.status}`}>
          {deliveryText(d)}
        </li>
      ))}
    </ul>
  );
}

/** The dataset's alert rules: evaluated after each upload of it, and on demand. */
export function AlertsTab({ datasetId }: { datasetId: number }) {
  const canWrite = useCanWrite();
  const rules = useRules(datasetId);
  const [selected, setSelected] = useState<number | null>(null);
  const evaluate = useAlertMutation(() => alerts.evaluateNow(datasetId));
  const update = useAlertMutation((r: { id: number; enabled: boolean }) => alerts.updateRule(r.id, { enabled: r.enabled, clear_threshold: false }));
  const remove = useAlertMutation((id: number) => alerts.deleteRule(id));
  const shown = selected ?? rules.data?.[0]?.id ?? null;

  const columns: Column<alerts.Rule>[] = [
    { key: "name", header: "Rule", render: (r) => <strong>{r.name}</strong> },
    { key: "condition", header: "Fires when", render: (r) => ruleText(r) },
    { key: "state", header: "Last result", render: (r) => <Outcome evaluation={r.last_evaluation} /> },
    {
      key: "message",
      header: "Figures",
      render: (r) => <span className={styles.message}>{r.last_evaluation?.message ?? (r.enabled ? "—" : "paused")}</span>,
    },
    {
      key: "actions",
      header: <span className="visually-hidden">Actions</span>,
      align: "right",
      render: (r) => (
        <div className={styles.actions}>
          <Button variant="ghost" size="small" onClick={() => setSelected(r.id)} aria-label={`History of ${r.name}`}>
            History
          </Button>
          {canWrite && (
            <>
              <Button variant="ghost" size="small" onClick={() => update.mutate({ id: r.id, enabled: !r.enabled })}>
                {r.enabled ? "Pause" : "Resume"}
              </Button>
              <Button
                variant="ghost"
                size="small"
                aria-label={`Remove rule ${r.name}`}
                onClick={() => window.confirm(`Remove the rule ${r.name} and its history?`) && remove.mutate(r.id)}
              >
                Remove
              </Button>
            </>
          )}
        </div>
      ),
    },
  ];

  return (
    <div className={styles.stack} data-testid="alerts-tab">
      <Card
        title="Alert rules"
        subtitle="Checked after each upload of this dataset, and when you evaluate now. A rule that fires is sent to its channels."
        flush
      >
        {canWrite && (
          <div className={styles.toolbar}>
            <span className={styles.muted}>Paused rules are not checked.</span>
            <Button variant="secondary" size="small" onClick={() => evaluate.mutate(undefined)} disabled={evaluate.isPending}>
              {evaluate.isPending ? "Evaluating…" : "Evaluate now"}
            </Button>
          </div>
        )}
        {evaluate.error && <ErrorBanner error={evaluate.error} title="Could not evaluate the rules" />}
        {(update.error ?? remove.error) && <ErrorBanner error={update.error ?? remove.error} title="Could not change the rule" />}
        {rules.isPending && <Loading label="Loading alert rules…" />}
        {rules.error && <ErrorBanner error={rules.error} title="Could not load the alert rules" />}
        {rules.data?.length === 0 && <p className={`${styles.muted} ${styles.note}`} style={{ paddingTop: "1rem" }}>No alert rules yet.</p>}
        {rules.data && rules.data.length > 0 && (
          <Table columns={columns} rows={rules.data} rowKey={(r) => r.id} caption="Alert rules" testId="alert-rules" />
        )}
      </Card>
      {canWrite && <AddRuleCard datasetId={datasetId} />}
      {shown !== null && rules.data && <HistoryCard rule={rules.data.find((r) => r.id === shown) ?? null} />}
    </div>
  );
}

function AddRuleCard({ datasetId }: { datasetId: number }) {
  const { current } = useWorkspace();
  const channels = useChannels(current?.id ?? 0);
  const [name, setName] = useState("");
  const [kind, setKind] = useState<alerts.RuleKind>("p95_above_sla");
  const [threshold, setThreshold] = useState("");
  const [picked, setPicked] = useState<number[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const create = useAlertMutation((body: alerts.RuleIn) => alerts.createRule(datasetId, body));
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    const value = thresholdFromField(kind, threshold);
    if (Number.isNaN(value)) return setProblem("The threshold is not a number.");
    if (kind === "error_rate_above" && value === null) return setProblem("Give the error rate, in %, above which the rule fires.");
    setProblem(null);
    const body = { name: name.trim() || KIND_LABELS[kind], kind, threshold: value, channel_ids: picked, enabled: true };
    create.mutate(body, { onSuccess: () => (setName(""), setThreshold("")) });
  };
  const toggle = (id: number) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id]));
  return (
    <Card title="Add a rule" flush>
      <form className={styles.form} onSubmit={submit} aria-label="Add an alert rule">
        <TextField label="Name" maxLength={200} value={name} placeholder={KIND_LABELS[kind]} onChange={(e) => setName(e.target.value)} />
        <div>
          <label className={styles.label} htmlFor="alert-kind">
            Fires when
          </label>
          <select id="alert-kind" className={styles.select} value={kind} onChange={(e) => setKind(e.target.value as alerts.RuleKind)}>
            {(Object.keys(KIND_LABELS) as alerts.RuleKind[]).map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </div>
        <TextField label={THRESHOLD_HELP[kind].label} inputMode="decimal" value={threshold} onChange={(e) => setThreshold(e.target.value)} />
        <fieldset className={styles.picker}>
          <legend>Send to</legend>
          {channels.data?.map((c) => (
            <label key={c.id}>
              <input type="checkbox" checked={picked.includes(c.id)} onChange={() => toggle(c.id)} />
              {c.name} <span className={styles.muted}>({c.kind})</span>
            </label>
          ))}
          {channels.data?.length === 0 && (
            <span className={styles.muted}>
              No channels yet: add e-mail, Slack or webhook channels under <Link to="/settings/team">Team settings</Link>.
            </span>
          )}
        </fieldset>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Adding…" : "Add rule"}
        </Button>
      </form>
      {problem !== null && <p className={`${styles.failed} ${styles.note}`} role="alert">{problem}</p>}
      {create.error && <ErrorBanner error={create.error} title="Could not add the rule" />}
    </Card>
  );
}

function HistoryCard({ rule }: { rule: alerts.Rule | null }) {
  const history = useHistory(rule?.id ?? null);
  if (rule === null) return null;
  const columns: Column<alerts.Evaluation>[] = [
    { key: "when", header: "When", render: (e) => formatDateTime(e.evaluated_at) },
    { key: "trigger", header: "After", render: (e) => (e.trigger === "ingest" ? "upload" : "evaluate now") },
    { key: "outcome", header: "Result", render: (e) => <Outcome evaluation={e} /> },
    { key: "message", header: "Figures", render: (e) => <span className={styles.message}>{e.message}</span> },
    { key: "deliveries", header: "Delivery", render: (e) => <Deliveries items={e.deliveries ?? []} /> },
  ];
  return (
    <Card title={`History: ${rule.name}`} subtitle="Newest first; a delivery that failed after its last retry says why." flush testId="alert-history">
      {history.isPending && <Loading label="Loading the history…" />}
      {history.error && <ErrorBanner error={history.error} title="Could not load the history" />}
      {history.data?.items.length === 0 && <p className={`${styles.muted} ${styles.note}`} style={{ paddingTop: "1rem" }}>Not evaluated yet.</p>}
      {history.data && history.data.items.length > 0 && (
        <Table columns={columns} rows={history.data.items} rowKey={(e) => e.id} caption={`History of ${rule.name}`} testId="alert-history-table" />
      )}
    </Card>
  );
}
