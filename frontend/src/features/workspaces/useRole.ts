/** The signed-in user's role in the current workspace, and what it lets them do in the UI. */
import { useContext } from "react";
import { WorkspaceContext } from "./workspaceContext";

export type RoleName = "owner" | "editor" | "viewer";

/** The role in the current workspace; null outside the shell or without a workspace. */
export function useRole(): RoleName | null {
  return useContext(WorkspaceContext)?.current?.role ?? null;
}

/** Editors and owners may upload, run and edit; viewers only read (the API refuses them). */
export function useCanWrite(): boolean {
  const role = useRole();
  return role === "editor" || role === "owner";
}

export function useIsOwner(): boolean {
  return useRole() === "owner";
}
