/** For tests: make the current workspace one where the fixture user (Ana) is a viewer. */
import { user } from "../../test/fixtures";
import { WORKSPACE_STORAGE_KEY } from "./workspaceContext";

export function actAsViewer(): void {
  const viewed = user.workspaces.find((w) => w.role === "viewer");
  if (viewed === undefined) throw new Error("the fixture user has no workspace as a viewer");
  window.localStorage.setItem(WORKSPACE_STORAGE_KEY, String(viewed.id));
}
