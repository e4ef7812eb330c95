import { useMemo, useState, type ReactNode } from "react";
import type { Workspace } from "../../api/models";
import { pickWorkspace, readStoredWorkspaceId, WORKSPACE_STORAGE_KEY, WorkspaceContext } from "./workspaceContext";

/** Holds the selected workspace; the choice survives reloads through localStorage. */
export function WorkspaceProvider({ workspaces, children }: { workspaces: Workspace[]; children: ReactNode }) {
  const [storedId, setStoredId] = useState<number | null>(readStoredWorkspaceId);
  const value = useMemo(() => {
    const select = (workspaceId: number) => {
      window.localStorage.setItem(WORKSPACE_STORAGE_KEY, String(workspaceId));
      setStoredId(workspaceId);
    };
    return { workspaces, current: pickWorkspace(workspaces, storedId), select };
  }, [workspaces, storedId]);
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}
