import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import * as teams from "./api";
import { useMembers } from "./queries";
import styles from "./Team.module.css";

/** Leave the current workspace (delete one's own membership). The last owner cannot: the card
 * says so and the server refuses it too (409 last_owner). */
export function LeaveCard({ workspaceId, workspaceName, myId }: { workspaceId: number; workspaceName: string; myId: number }) {
  const members = useMembers(workspaceId);
  const client = useQueryClient();
  const navigate = useNavigate();
  const leave = useMutation({
    mutationFn: () => teams.removeMember(workspaceId, myId),
    onSuccess: () => {
      void client.invalidateQueries();
      void navigate("/datasets", { replace: true });
    },
  });
  const owners = (members.data ?? []).filter((m) => m.role === "owner");
  const lastOwner = owners.length === 1 && owners[0]?.user_id === myId;
  const confirmLeave = () => {
    if (window.confirm(`Leave ${workspaceName}? You lose access to its datasets, analyses and reports until someone invites you again.`)) leave.mutate();
  };
  return (
    <Card title="Leave this workspace" subtitle="You lose access to its datasets, analyses, simulations and reports; your API tokens for it stop working." testId="leave-card">
      <div className={styles.form}>
        <Button variant="danger" onClick={confirmLeave} disabled={lastOwner || leave.isPending || members.isPending} data-testid="leave-workspace">
          {leave.isPending ? "Leaving…" : "Leave workspace"}
        </Button>
        {lastOwner && (
          <p className={styles.muted} data-testid="leave-last-owner">
            You are its last owner: make another member owner before leaving.
          </p>
        )}
      </div>
      {leave.isError && <ErrorBanner error={leave.error} title="Could not leave the workspace" />}
    </Card>
  );
}
