import { useState, type SyntheticEvent } from "react";
import { Badge } from "../../components/Badge";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import { Loading } from "../../components/Spinner";
import { Table, type Column } from "../../components/Table";
import { TextField } from "../../components/TextField";
import { SecretOnce } from "../settings/SecretOnce";
import * as alerts from "./api";
import styles from "./Alerts.module.css";
import { deliveryText } from "./describe";
import { useAlertMutation, useChannels } from "./queries";

interface KindShape {
  kind: alerts.ChannelKind;
  label: string;
  target: string;
  placeholder: string;
}
const EMAIL: KindShape = { kind: "email", label: "E-mail", target: "Addresses (comma-separated)", placeholder: "ops@example.com" };
const KINDS: KindShape[] = [
  EMAIL,
  { kind: "slack", label: "Slack-compatible webhook", target: "Webhook URL", placeholder: "https://hooks.slack.com/services/…" },
  { kind: "webhook", label: "Signed webhook (HMAC)", target: "URL", placeholder: "https://example.com/headroom-alerts" },
];

/** Where alert rules send to: e-mail, Slack, or a signed webhook; part of the team settings. */
export function ChannelsCard({ workspaceId, canWrite }: { workspaceId: number; canWrite: boolean }) {
  const channels = useChannels(workspaceId);
  const test = useAlertMutation((id: number) => alerts.testChannel(workspaceId, id));
  const remove = useAlertMutation((id: number) => alerts.deleteChannel(workspaceId, id));
  const columns: Column<alerts.Channel>[] = [
    { key: "name", header: "Channel", render: (c) => <strong>{c.name}</strong> },
    { key: "kind", header: "Kind", render: (c) => KINDS.find((k) => k.kind === c.kind)?.label ?? c.kind },
    { key: "target", header: "Sends to", render: (c) => <span className={styles.message}>{c.target}</span> },
    { key: "weekly", header: "Weekly report", render: (c) => (c.weekly_report ? <Badge tone="info">yes</Badge> : "no") },
    {
      key: "last",
      header: "Last delivery",
      render: (c) =>
        c.last_delivery ? (
          <span className={c.last_delivery.status === "failed" ? styles.failed : undefined} data-testid={`channel-delivery-${c.last_delivery.status}`}>
            {deliveryText({ ...c.last_delivery, channel_name: c.last_delivery.purpose === "test" ? "test" : c.last_delivery.purpose })}
          </span>
        ) : (
          <span className={styles.muted}>none yet</span>
        ),
    },
    {
      key: "actions",
      header: <span className="visually-hidden">Actions</span>,
      align: "right",
      render: (c) =>
        canWrite ? (
          <div className={styles.actions}>
            <Button variant="ghost" size="small" onClick={() => test.mutate(c.id)} aria-label={`Send a test to ${c.name}`}>
              Send test
            </Button>
            <Button
              variant="ghost"
              size="small"
              aria-label={`Remove channel ${c.name}`}
              onClick={() => window.confirm(`Remove the channel ${c.name}? Rules stop sending to it.`) && remove.mutate(c.id)}
            >
              Remove
            </Button>
          </div>
        ) : null,
    },
  ];
  return (
    <Card
      title="Alert channels"
      subtitle="Where alert rules send to. Add rules on a dataset's Alerts tab."
      flush
      testId="channels-card"
    >
      {canWrite && <AddChannel workspaceId={workspaceId} />}
      {(test.error ?? remove.error) && <ErrorBanner error={test.error ?? remove.error} title="Could not reach the channel's settings" />}
      {channels.isPending && <Loading label="Loading channels…" />}
      {channels.error && <ErrorBanner error={channels.error} title="Could not load the channels" />}
      {channels.data?.length === 0 && <p className={`${styles.muted} ${styles.note}`}>No channels yet.</p>}
      {channels.data && channels.data.length > 0 && (
        <Table columns={columns} rows={channels.data} rowKey={(c) => c.id} caption="Alert channels" testId="channels-table" />
      )}
    </Card>
  );
}

function AddChannel({ workspaceId }: { workspaceId: number }) {
  const [name, setName] = useState("");
  const [kind, setKind] = useState<alerts.ChannelKind>("email");
  const [target, setTarget] = useState("");
  const [weekly, setWeekly] = useState(false);
  const create = useAlertMutation((body: alerts.ChannelIn) => alerts.createChannel(workspaceId, body));
  const shape = KINDS.find((k) => k.kind === kind) ?? EMAIL;
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    const body = { name: name.trim(), kind, target: target.trim(), weekly_report: kind === "email" && weekly };
    create.mutate(body, { onSuccess: () => (setName(""), setTarget("")) });
  };
  return (
    <>
      <form className={styles.form} onSubmit={submit} aria-label="Add an alert channel">
        <TextField label="Name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        <div>
          <label className={styles.label} htmlFor="channel-kind">
            Kind
          </label>
          <select id="channel-kind" className={styles.select} value={kind} onChange={(e) => setKind(e.target.value as alerts.ChannelKind)}>
            {KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
          </select>
        </div>
        <TextField label={shape.target} required value={target} placeholder={shape.placeholder} onChange={(e) => setTarget(e.target.value)} />
        {kind === "email" && (
          <fieldset className={styles.picker}>
            <label>
              <input type="checkbox" checked={weekly} onChange={(e) => setWeekly(e.target.checked)} />
              Also send the weekly report here
            </label>
          </fieldset>
        )}
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Adding…" : "Add channel"}
        </Button>
      </form>
      {create.error && <ErrorBanner error={create.error} title="Could not add the channel" />}
      {create.data?.secret && (
        <SecretOnce
          label={`Signing secret of ${create.data.name}`}
          value={create.data.secret}
          note="Shown once: the receiver checks X-Headroom-Signature (HMAC-SHA256 of the body) with it. See the alerts guide."
          testId="channel-secret"
        />
      )}
    </>
  );
}
