import { useState, type SyntheticEvent } from "react";
import { Badge } from "../../components/Badge";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import { Loading } from "../../components/Spinner";
import { Table, type Column } from "../../components/Table";
import { TextField } from "../../components/TextField";
import { formatDateTime } from "../../lib/format";
import * as teams from "./api";
import { useTeamMutation, useTokens } from "./queries";
import { SecretOnce } from "./SecretOnce";
import styles from "./Team.module.css";

const SCOPES: { scope: teams.Scope; role: teams.RoleName; label: string }[] = [
  { scope: "read", role: "viewer", label: "read" },
  { scope: "write", role: "editor", label: "write (upload, analyse)" },
  { scope: "admin", role: "owner", label: "admin" },
];
const RANK: Record<teams.RoleName, number> = { viewer: 0, editor: 1, owner: 2 };

function tokenState(t: teams.ApiToken): string {
  if (t.revoked_at) return "revoked";
  if (t.expires_at && new Date(t.expires_at) <= new Date()) return "expired";
  return "active";
}

export function TokensCard({ workspaceId, role }: { workspaceId: number; role: teams.RoleName }) {
  const [name, setName] = useState("CI");
  const [scope, setScope] = useState<teams.Scope>(role === "viewer" ? "read" : "write");
  const [days, setDays] = useState("90");
  const tokens = useTokens(workspaceId);
  const create = useTeamMutation(() => teams.createToken(workspaceId, name.trim(), [scope], days === "" ? null : Number(days)));
  const revoke = useTeamMutation((id: number) => teams.revokeToken(workspaceId, id));
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    create.mutate(undefined);
  };
  const columns: Column<teams.ApiToken>[] = [
    { key: "name", header: "Name", render: (t) => t.name },
    { key: "prefix", header: "Token", mono: true, render: (t) => `${t.prefix}…` },
    { key: "owner", header: "Owner", render: (t) => t.owner.email },
    { key: "scopes", header: "Scopes", render: (t) => t.scopes.join(", ") },
    { key: "created", header: "Created", render: (t) => formatDateTime(t.created_at) },
    { key: "used", header: "Last used", render: (t) => (t.last_used_at ? formatDateTime(t.last_used_at) : "never") },
    { key: "expires", header: "Expires", render: (t) => (t.expires_at ? formatDateTime(t.expires_at) : "never") },
    {
      key: "state",
      header: "State",
      render: (t) => <Badge tone={tokenState(t) === "active" ? "success" : "neutral"}>{tokenState(t)}</Badge>,
    },
    {
      key: "revoke",
      header: <span className="visually-hidden">Revoke</span>,
      align: "right",
      render: (t) =>
        tokenState(t) === "active" ? (
          <Button variant="ghost" size="small" onClick={() => window.confirm(`Revoke the token ${t.name}? Pipelines that use it stop working.`) && revoke.mutate(t.id)} aria-label={`Revoke token ${t.name}`}>
            Revoke
          </Button>
        ) : null,
    },
  ];
  return (
    <Card title="API tokens" subtitle={
        role === "viewer"
          ? "For pipelines and the headroom CLI (HEADROOM_TOKEN). As a viewer you create read-only tokens: a token never has more rights than you."
          : "For pipelines and the headroom CLI (HEADROOM_TOKEN). A token never has more rights than you."
      } flush testId="tokens-card">
      <form className={styles.form} onSubmit={submit} aria-label="Create an API token">
        <TextField label="Name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        <div>
          <label className={styles.label} htmlFor="token-scope">
            Scope
          </label>
          <select id="token-scope" className={styles.select} value={scope} onChange={(e) => setScope(e.target.value as teams.Scope)}>
            {SCOPES.filter((s) => RANK[s.role] <= RANK[role]).map((s) => (
              <option key={s.scope} value={s.scope}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <TextField label="Expires after (days, empty: never)" type="number" min={1} max={3650} value={days} onChange={(e) => setDays(e.target.value)} />
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create token"}
        </Button>
      </form>
      {create.error && <ErrorBanner error={create.error} title="Could not create the token" />}
      {create.data && (
        <SecretOnce
          label={`Token ${create.data.name}`}
          value={create.data.token}
          note="Shown once: store it in your CI's secrets now. Only its hash is kept here."
          testId="token-secret"
        />
      )}
      {tokens.isPending && <Loading label="Loading tokens" />}
      {tokens.error && <ErrorBanner error={tokens.error} title="Could not load the tokens" />}
      {tokens.data && tokens.data.length === 0 && <p className={`${styles.muted} ${styles.form}`}>No tokens yet.</p>}
      {tokens.data && tokens.data.length > 0 && <Table columns={columns} rows={tokens.data} rowKey={(t) => t.id} caption="API tokens" testId="tokens-table" />}
    </Card>
  );
}
