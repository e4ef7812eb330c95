import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { user } from "../../test/fixtures";
import { jsonResponse, renderWithApp } from "../../test/render";
import { WORKSPACE_STORAGE_KEY } from "../workspaces/workspaceContext";
import { TeamPage } from "./TeamPage";

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

const T0 = "2026-11-01T00:00:00Z";
const member = (user_id: number, email: string, role: string) => ({ user_id, email, name: email.split("@")[0], role, joined_at: T0 });
const token = { id: 3, name: "CI", prefix: "hr_ab12", scopes: ["write"], owner: { id: 1, email: "ana@example.org", name: "Ana" }, created_at: T0, last_used_at: null, expires_at: null, revoked_at: null };
const invitation = { id: 4, workspace_id: 1, email: "cy@example.org", role: "viewer", created_at: T0, expires_at: "2099-01-01T00:00:00Z", accepted_at: null, revoked_at: null, status: "pending" };

type Answer = (sent: Sent) => Response | null;

function stubApi(members: ReturnType<typeof member>[], answer: Answer = () => null): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const path = new URL(request.url).pathname;
      const text = request.method === "GET" || request.method === "DELETE" ? "" : await request.text();
      const call = { method: request.method, path, body: text === "" ? null : (JSON.parse(text) as unknown) };
      sent.push(call);
      const special = answer(call);
      if (special !== null) return special;
      if (path === "/api/v1/auth/me") return jsonResponse(200, user);
      if (/\/members$/.test(path)) return jsonResponse(200, members);
      if (/\/invitations$/.test(path) && call.method === "GET") return jsonResponse(200, [invitation]);
      if (/\/invitations$/.test(path)) return jsonResponse(201, { ...invitation, id: 5, email: "dee@example.org", url: "http://x/invite/SECRET-LINK", emailed: false });
      if (/\/tokens$/.test(path) && call.method === "GET") return jsonResponse(200, [token]);
      if (/\/tokens$/.test(path)) return jsonResponse(201, { ...token, id: 6, name: "deploy", token: "hr_SECRET_TOKEN" });
      if (/\/alert-channels$/.test(path) && call.method === "GET") return jsonResponse(200, []);
      if (call.method === "DELETE") return jsonResponse(204, null);
      if (call.method === "PATCH") return jsonResponse(200, member(2, "bob@example.org", "viewer"));
      return jsonResponse(404, { error: { code: "not_found", message: `no ${path}` } });
    }),
  );
  return sent;
}

const writes = (sent: Sent[]) => sent.filter((s) => s.method !== "GET").map((s) => [s.method, s.path, s.body]);

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

describe("TeamPage as an owner", () => {
  const team = [member(1, "ana@example.org", "owner"), member(2, "bob@example.org", "editor")];

  it("changes a member's role and removes a member", async () => {
    const sent = stubApi(team);
    vi.spyOn(window, "confirm").mockReturnValue(true);
    renderWithApp(<TeamPage />);
    const role = await screen.findByLabelText("Role of bob@example.org");
    fireEvent.change(role, { target: { value: "viewer" } });
    fireEvent.click(screen.getByRole("button", { name: "Remove bob@example.org" }));
    await waitFor(() => expect(writes(sent)).toHaveLength(2));
    expect(writes(sent)).toEqual(
      expect.arrayContaining([
        ["PATCH", "/api/v1/workspaces/1/members/2", { role: "viewer" }],
        ["DELETE", "/api/v1/workspaces/1/members/2", null],
      ]),
    );
  });

  it("invites by e-mail and shows the single-use link once", async () => {
    const sent = stubApi(team);
    renderWithApp(<TeamPage />);
    const card = await screen.findByTestId("invitations-card");
    expect(await within(card).findByText("cy@example.org")).toBeInTheDocument();
    fireEvent.change(within(card).getByLabelText("E-mail"), { target: { value: " dee@example.org " } });
    fireEvent.change(within(card).getByLabelText("Role"), { target: { value: "viewer" } });
    fireEvent.click(within(card).getByRole("button", { name: "Create invitation link" }));
    expect(await screen.findByTestId("invitation-link")).toHaveTextContent("http://x/invite/SECRET-LINK");
    expect(writes(sent)).toEqual([["POST", "/api/v1/workspaces/1/invitations", { email: "dee@example.org", role: "viewer" }]]);
    fireEvent.click(within(card).getByRole("button", { name: "Revoke the invitation of cy@example.org" }));
    await waitFor(() => expect(writes(sent)[1]).toEqual(["DELETE", "/api/v1/workspaces/1/invitations/4", null]));
  });

  it("creates an API token, shows it once, and revokes one", async () => {
    const sent = stubApi(team);
    vi.spyOn(window, "confirm").mockReturnValue(true);
    renderWithApp(<TeamPage />);
    const card = await screen.findByTestId("tokens-card");
    expect(await within(card).findByText("hr_ab12…")).toBeInTheDocument();
    expect(within(card).getAllByRole("option").map((o) => o.textContent)).toEqual(["read", "write (upload, analyse)", "admin"]);
    fireEvent.change(within(card).getByLabelText("Name"), { target: { value: "deploy" } });
    fireEvent.change(within(card).getByLabelText("Expires after (days, empty: never)"), { target: { value: "" } });
    fireEvent.click(within(card).getByRole("button", { name: "Create token" }));
    expect(await screen.findByTestId("token-secret")).toHaveTextContent("hr_SECRET_TOKEN");
    expect(writes(sent)).toEqual([["POST", "/api/v1/workspaces/1/tokens", { name: "deploy", scopes: ["write"], expires_days: null }]]);
    fireEvent.click(within(card).getByRole("button", { name: "Revoke token CI" }));
    await waitFor(() => expect(writes(sent)[1]).toEqual(["DELETE", "/api/v1/workspaces/1/tokens/3", null]));
  });

  it("keeps the last owner: their role and Remove are disabled, others' are not", async () => {
    stubApi(team);
    renderWithApp(<TeamPage />);
    expect(await screen.findByLabelText("Role of ana@example.org")).toBeDisabled();
    expect(screen.getByRole("button", { name: "Remove ana@example.org" })).toBeDisabled();
    expect(screen.getByLabelText("Role of bob@example.org")).toBeEnabled();
    expect(screen.getByRole("button", { name: "Remove bob@example.org" })).toBeEnabled();
  });

  it("asks before removing a member or revoking a token, and sends nothing when cancelled", async () => {
    const sent = stubApi(team);
    const confirm = vi.spyOn(window, "confirm").mockReturnValue(false);
    renderWithApp(<TeamPage />);
    fireEvent.click(await screen.findByRole("button", { name: "Remove bob@example.org" }));
    const card = await screen.findByTestId("tokens-card");
    fireEvent.click(await within(card).findByRole("button", { name: "Revoke token CI" }));
    expect(confirm).toHaveBeenCalledTimes(2);
    expect(writes(sent)).toEqual([]);
  });

  it("cannot leave as the last owner", async () => {
    stubApi(team);
    renderWithApp(<TeamPage />);
    expect(await screen.findByTestId("leave-last-owner")).toHaveTextContent("make another member owner before leaving");
    expect(screen.getByTestId("leave-workspace")).toBeDisabled();
  });

  it("leaves when another owner remains, then goes to the datasets", async () => {
    const sent = stubApi([member(1, "ana@example.org", "owner"), member(2, "bob@example.org", "owner")]);
    vi.spyOn(window, "confirm").mockReturnValue(true);
    renderWithApp(<TeamPage />, { path: "/settings/team", route: "/settings/team" });
    const leave = await screen.findByTestId("leave-workspace");
    await waitFor(() => expect(leave).toBeEnabled());
    fireEvent.click(leave);
    expect(await screen.findByTestId("location")).toHaveTextContent("/datasets");
    expect(writes(sent)).toEqual([["DELETE", "/api/v1/workspaces/1/members/1", null]]);
  });

  it("shows the server's refusal to leave", async () => {
    stubApi([member(1, "ana@example.org", "owner"), member(2, "bob@example.org", "owner")], (call) =>
      call.method === "DELETE" ? jsonResponse(409, { error: { code: "last_owner", message: "you are the last owner of this workspace" } }) : null,
    );
    vi.spyOn(window, "confirm").mockReturnValue(true);
    renderWithApp(<TeamPage />);
    const leave = await screen.findByTestId("leave-workspace");
    await waitFor(() => expect(leave).toBeEnabled());
    fireEvent.click(leave);
    expect(await screen.findByRole("alert")).toHaveTextContent("you are the last owner of this workspace");
  });
});

describe("TeamPage as a viewer", () => {
  it("hides every member-management action and offers only read tokens", async () => {
    window.localStorage.setItem(WORKSPACE_STORAGE_KEY, "2");
    const sent = stubApi([member(9, "owen@example.org", "owner"), member(1, "ana@example.org", "viewer")]);
    renderWithApp(<TeamPage />);
    const table = await screen.findByTestId("members-table");
    expect(await within(table).findByText("owen <owen@example.org>")).toBeInTheDocument();
    expect(within(table).queryByRole("combobox")).not.toBeInTheDocument();
    expect(within(table).queryByRole("button", { name: /Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByTestId("invitations-card")).not.toBeInTheDocument();
    const tokens = screen.getByTestId("tokens-card");
    expect(within(tokens).getAllByRole("option").map((o) => o.textContent)).toEqual(["read"]);
    expect(sent.some((s) => s.path.endsWith("/invitations"))).toBe(false);
    await waitFor(() => expect(screen.getByTestId("leave-workspace")).toBeEnabled());
  });
});
