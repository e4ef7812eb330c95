import { createContext, useContext } from "react";
import type { Workspace } from "../../api/models";

export const WORKSPACE_STORAGE_KEY = "headroom.workspaceId";

export interface WorkspaceState {
  workspaces: Workspace[];
  current: Workspace | null;
  select: (workspaceId: number) => void;
}

export const WorkspaceContext = createContext<WorkspaceState | null>(null);

export function useWorkspace(): WorkspaceState {
  const state = useContext(WorkspaceContext);
  if (state === null) throw new Error("useWorkspace must be used inside <WorkspaceProvider>");
  return state;
}

/** The stored choice if the user is still a member of it, else their first workspace. */
export function pickWorkspace(workspaces: Workspace[], storedId: number | null): Workspace | null {
  return workspaces.find((w) => w.id === storedId) ?? workspaces[0] ?? null;
}

export function readStoredWorkspaceId(): number | null {
  const raw = window.localStorage.getItem(WORKSPACE_STORAGE_KEY);
  const id = raw === null ? NaN : Number(raw);
  return Number.isInteger(id) ? id : null;
}
