import { useState, type SyntheticEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import { PageHeader } from "../../components/PageHeader";
import { TextField } from "../../components/TextField";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { ChannelsCard } from "../alerts/ChannelsCard";
import { useMe } from "../auth/useAuth";
import { useWorkspace } from "../workspaces/workspaceContext";
import * as teams from "./api";
import { InvitationsCard } from "./InvitationsCard";
import { LeaveCard } from "./LeaveCard";
import { MembersCard } from "./MembersCard";
import { TokensCard } from "./TokensCard";
import { useTeamMutation } from "./queries";
import styles from "./Team.module.css";

/** Settings of the current workspace: members, invitations (owners), API tokens. */
export function TeamPage() {
  useDocumentTitle("Team");
  const { current } = useWorkspace();
  const me = useMe();
  if (current === null || !me.data) return <NewWorkspaceCard />;
  const isOwner = current.role === "owner";
  return (
    <div className={styles.page}>
      <PageHeader title={`Team: ${current.name}`} subtitle={`You are ${current.role} of this workspace.`} />
      <MembersCard workspaceId={current.id} isOwner={isOwner} myId={me.data.id} />
      {isOwner && <InvitationsCard workspaceId={current.id} />}
      <TokensCard workspaceId={current.id} role={current.role} />
      <ChannelsCard workspaceId={current.id} canWrite={current.role !== "viewer"} />
      <NewWorkspaceCard />
      <LeaveCard workspaceId={current.id} workspaceName={current.name} myId={me.data.id} />
    </div>
  );
}

function NewWorkspaceCard() {
  const [name, setName] = useState("");
  const client = useQueryClient();
  const create = useTeamMutation(() => teams.createWorkspace(name.trim()));
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    create.mutate(undefined, { onSuccess: () => void client.invalidateQueries() });
  };
  return (
    <Card title="New workspace" subtitle="You become its owner; switch to it with the workspace menu.">
      <form className={styles.form} onSubmit={submit} aria-label="Create a workspace">
        <TextField label="Name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        <Button type="submit" variant="secondary" disabled={create.isPending}>
          Create workspace
        </Button>
      </form>
      {create.error && <ErrorBanner error={create.error} title="Could not create the workspace" />}
    </Card>
  );
}
