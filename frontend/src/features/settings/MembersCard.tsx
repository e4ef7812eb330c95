import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import { Loading } from "../../components/Spinner";
import { Table, type Column } from "../../components/Table";
import { formatDateTime } from "../../lib/format";
import * as teams from "./api";
import { useMembers, useTeamMutation } from "./queries";
import styles from "./Team.module.css";

const ROLES: teams.RoleName[] = ["owner", "editor", "viewer"];

export function MembersCard({ workspaceId, isOwner, myId }: { workspaceId: number; isOwner: boolean; myId: number }) {
  const members = useMembers(workspaceId);
  const change = useTeamMutation((a: { userId: number; role: teams.RoleName }) => teams.changeRole(workspaceId, a.userId, a.role));
  const remove = useTeamMutation((userId: number) => teams.removeMember(workspaceId, userId));
  const owners = (members.data ?? []).filter((m) => m.role === "owner").length;
  const isLastOwner = (m: teams.Member) => m.role === "owner" && owners <= 1;
  const lastOwnerNote = "A workspace keeps at least one owner: make someone else owner first.";
  const columns: Column<teams.Member>[] = [
    { key: "email", header: "Member", render: (m) => `${m.name} <${m.email}>${m.user_id === myId ? " (you)" : ""}` },
    {
      key: "role",
      header: "Role",
      render: (m) =>
        isOwner ? (
          <select
            className={styles.select}
            aria-label={`Role of ${m.email}`}
            value={m.role}
            disabled={isLastOwner(m)}
            title={isLastOwner(m) ? lastOwnerNote : undefined}
            onChange={(e) => change.mutate({ userId: m.user_id, role: e.target.value as teams.RoleName })}
          >
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        ) : (
          m.role
        ),
    },
    { key: "joined", header: "Joined", render: (m) => formatDateTime(m.joined_at) },
  ];
  if (isOwner) {
    columns.push({
      key: "remove",
      header: <span className="visually-hidden">Remove</span>,
      align: "right",
      render: (m) => (
        <Button
          variant="ghost"
          size="small"
          onClick={() => window.confirm(`Remove ${m.email} from this workspace?`) && remove.mutate(m.user_id)}
          disabled={isLastOwner(m)}
          title={isLastOwner(m) ? lastOwnerNote : undefined}
          aria-label={`Remove ${m.email}`}
        >
          Remove
        </Button>
      ),
    });
  }
  return (
    <Card title="Members" subtitle="Owners manage members; editors upload and run analyses; viewers read." flush testId="members-card">
      {members.isPending && <Loading label="Loading members" />}
      {members.error && <ErrorBanner error={members.error} title="Could not load the members" hint="Reload the page." />}
      {(change.error ?? remove.error) && (
        <ErrorBanner error={change.error ?? remove.error} title="The change was refused" hint="A workspace always keeps one owner: make someone else owner first." />
      )}
      {members.data && <Table columns={columns} rows={members.data} rowKey={(m) => m.user_id} caption="Members" testId="members-table" />}
    </Card>
  );
}
