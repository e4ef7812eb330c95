import { useState, type SyntheticEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "react-router";
import { isNotFound } from "../../api/client";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import { Loading } from "../../components/Spinner";
import { TextField } from "../../components/TextField";
import { formatDateTime } from "../../lib/format";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useMe } from "../auth/useAuth";
import * as teams from "./api";
import styles from "./Team.module.css";

/** /invite/:token — join a workspace: signed in as the invited address, or with a new account. */
export function AcceptInvitePage() {
  useDocumentTitle("Invitation");
  const { token = "" } = useParams();
  const me = useMe();
  const preview = useQuery({ queryKey: ["invitation", token], queryFn: () => teams.previewInvitation(token), retry: false });
  if (preview.isPending || me.isPending) return <Loading label="Opening the invitation" />;
  if (preview.error) {
    return (
      <div className={styles.narrow}>
        <ErrorBanner
          error={preview.error}
          title={isNotFound(preview.error) ? "This invitation link is not valid" : "Could not open the invitation"}
          hint="It may have been used, revoked or have expired: ask the workspace owner for a new link."
        />
      </div>
    );
  }
  const invitation = preview.data;
  return (
    <div className={styles.narrow}>
      <Card title={`Join ${invitation.workspace_name}`} subtitle={`as ${invitation.role}, invited as ${invitation.email}; the link expires ${formatDateTime(invitation.expires_at)}`}>
        {me.data ? <AcceptSignedIn token={token} email={me.data.email} invited={invitation.email} /> : <AcceptNew token={token} preview={invitation} />}
      </Card>
    </div>
  );
}

function useAccept(token: string, password?: string, name?: string) {
  const client = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => teams.acceptInvitation(token, password, name),
    onSuccess: async () => {
      await client.invalidateQueries();
      void navigate("/datasets", { replace: true });
    },
  });
}

function AcceptSignedIn({ token, email, invited }: { token: string; email: string; invited: string }) {
  const accept = useAccept(token);
  if (email !== invited) {
    return <p>You are signed in as {email}, but this invitation is for {invited}. Sign out, then open the link again.</p>;
  }
  return (
    <div className={styles.form}>
      <Button onClick={() => accept.mutate()} disabled={accept.isPending}>
        Accept the invitation
      </Button>
      {accept.error && <ErrorBanner error={accept.error} title="Could not accept" />}
    </div>
  );
}

function AcceptNew({ token, preview }: { token: string; preview: teams.InvitationPreview }) {
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const accept = useAccept(token, password, name);
  const next = `/login?next=${encodeURIComponent(`/invite/${token}`)}`;
  if (preview.account_exists) {
    return (
      <p>
        {preview.email} already has an account: <Link to={next}>sign in</Link> to accept.
      </p>
    );
  }
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    accept.mutate();
  };
  return (
    <form className={styles.form} onSubmit={submit} aria-label="Create your account">
      <TextField label="Your name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" />
      <TextField label="Choose a password (8+ characters)" type="password" required minLength={8} value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" />
      <Button type="submit" disabled={accept.isPending}>
        {accept.isPending ? "Joining…" : "Create account and join"}
      </Button>
      {accept.error && <ErrorBanner error={accept.error} title="Could not join" />}
      <p className={styles.muted}>
        Already have an account as {preview.email}? <Link to={next}>Sign in</Link>.
      </p>
    </form>
  );
}
