import { useState, type SyntheticEvent } from "react";
import { Badge, type BadgeTone } from "../../components/Badge";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import { Loading } from "../../components/Spinner";
import { Table, type Column } from "../../components/Table";
import { TextField } from "../../components/TextField";
import { formatDateTime } from "../../lib/format";
import * as teams from "./api";
import { useInvitations, useTeamMutation } from "./queries";
import { SecretOnce } from "./SecretOnce";
import styles from "./Team.module.css";

const TONES: Record<teams.Invitation["status"], BadgeTone> = {
  pending: "info",
  accepted: "success",
  expired: "neutral",
  revoked: "neutral",
};

export function InvitationsCard({ workspaceId }: { workspaceId: number }) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<teams.RoleName>("editor");
  const invitations = useInvitations(workspaceId, true);
  const create = useTeamMutation(() => teams.invite(workspaceId, email.trim(), role));
  const revoke = useTeamMutation((id: number) => teams.revokeInvitation(workspaceId, id));
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    create.mutate(undefined, { onSuccess: () => setEmail("") });
  };
  const columns: Column<teams.Invitation>[] = [
    { key: "email", header: "E-mail", render: (i) => i.email },
    { key: "role", header: "Role", render: (i) => i.role },
    { key: "status", header: "Status", render: (i) => <Badge tone={TONES[i.status]}>{i.status}</Badge> },
    { key: "expires", header: "Expires", render: (i) => formatDateTime(i.expires_at) },
    {
      key: "revoke",
      header: <span className="visually-hidden">Revoke</span>,
      align: "right",
      render: (i) =>
        i.status === "pending" ? (
          <Button variant="ghost" size="small" onClick={() => revoke.mutate(i.id)} aria-label={`Revoke the invitation of ${i.email}`}>
            Revoke
          </Button>
        ) : null,
    },
  ];
  return (
    <Card title="Invitations" subtitle="A link that works once and expires in 7 days; send it to the person you invite." flush testId="invitations-card">
      <form className={styles.form} onSubmit={submit} aria-label="Invite someone">
        <TextField label="E-mail" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} placeholder="colleague@example.com" />
        <div>
          <label className={styles.label} htmlFor="invite-role">
            Role
          </label>
          <select id="invite-role" className={styles.select} value={role} onChange={(e) => setRole(e.target.value as teams.RoleName)}>
            <option value="viewer">viewer (read)</option>
            <option value="editor">editor (upload, analyse)</option>
            <option value="owner">owner (manage the team)</option>
          </select>
        </div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Inviting…" : "Create invitation link"}
        </Button>
      </form>
      {create.error && <ErrorBanner error={create.error} title="Could not invite" hint="Check the address; members cannot be invited again." />}
      {create.data && (
        <SecretOnce
          label={`Invitation link for ${create.data.email}${create.data.emailed ? " (also e-mailed)" : ""}`}
          value={create.data.url}
          note="Shown once: copy it now and send it. It works once, for this address only."
          testId="invitation-link"
        />
      )}
      {invitations.isPending && <Loading label="Loading invitations" />}
      {invitations.error && <ErrorBanner error={invitations.error} title="Could not load the invitations" />}
      {invitations.data && invitations.data.length === 0 && <p className={`${styles.muted} ${styles.form}`}>No invitations yet.</p>}
      {invitations.data && invitations.data.length > 0 && (
        <Table columns={columns} rows={invitations.data} rowKey={(i) => i.id} caption="Invitations" testId="invitations-table" />
      )}
    </Card>
  );
}
