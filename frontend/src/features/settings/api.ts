/** The REST calls of team settings: members, invitations, API tokens, invitation links. */
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";

type S = components["schemas"];
export type Member = S["MemberOut"];
export type Invitation = S["InvitationOut"];
export type InvitationCreated = S["InvitationCreated"];
export type InvitationPreview = S["InvitationPreview"];
export type ApiToken = S["ApiTokenOut"];
export type ApiTokenCreated = S["ApiTokenCreated"];
export type RoleName = Member["role"];
export type Scope = "read" | "write" | "admin";

const ws = (workspaceId: number) => ({ workspace_id: workspaceId });

export const listMembers = (workspaceId: number): Promise<Member[]> =>
  unwrap(api.GET("/api/v1/workspaces/{workspace_id}/members", { params: { path: ws(workspaceId) } }));

export const changeRole = (workspaceId: number, userId: number, role: RoleName): Promise<Member> =>
  unwrap(
    api.PATCH("/api/v1/workspaces/{workspace_id}/members/{user_id}", {
      params: { path: { ...ws(workspaceId), user_id: userId } },
      body: { role },
    }),
  );

export const removeMember = (workspaceId: number, userId: number): Promise<unknown> =>
  unwrap(
    api.DELETE("/api/v1/workspaces/{workspace_id}/members/{user_id}", {
      params: { path: { ...ws(workspaceId), user_id: userId } },
    }),
  );

export const listInvitations = (workspaceId: number): Promise<Invitation[]> =>
  unwrap(api.GET("/api/v1/workspaces/{workspace_id}/invitations", { params: { path: ws(workspaceId) } }));

export const invite = (workspaceId: number, email: string, role: RoleName): Promise<InvitationCreated> =>
  unwrap(
    api.POST("/api/v1/workspaces/{workspace_id}/invitations", {
      params: { path: ws(workspaceId) },
      body: { email, role },
    }),
  );

export const revokeInvitation = (workspaceId: number, invitationId: number): Promise<unknown> =>
  unwrap(
    api.DELETE("/api/v1/workspaces/{workspace_id}/invitations/{invitation_id}", {
      params: { path: { ...ws(workspaceId), invitation_id: invitationId } },
    }),
  );

export const listTokens = (workspaceId: number): Promise<ApiToken[]> =>
  unwrap(api.GET("/api/v1/workspaces/{workspace_id}/tokens", { params: { path: ws(workspaceId) } }));

export const createToken = (
  workspaceId: number,
  name: string,
  scopes: Scope[],
  expiresDays: number | null,
): Promise<ApiTokenCreated> =>
  unwrap(
    api.POST("/api/v1/workspaces/{workspace_id}/tokens", {
      params: { path: ws(workspaceId) },
      body: { name, scopes, expires_days: expiresDays },
    }),
  );

export const revokeToken = (workspaceId: number, tokenId: number): Promise<unknown> =>
  unwrap(
    api.DELETE("/api/v1/workspaces/{workspace_id}/tokens/{token_id}", {
      params: { path: { ...ws(workspaceId), token_id: tokenId } },
    }),
  );

export const previewInvitation = (token: string): Promise<InvitationPreview> =>
  unwrap(api.GET("/api/v1/invitations/{token}", { params: { path: { token } } }));

export const acceptInvitation = (token: string, password?: string, name?: string): Promise<unknown> =>
  unwrap(
    api.POST("/api/v1/invitations/{token}/accept", {
      params: { path: { token } },
      body: password === undefined ? {} : { password, name: name || null },
    }),
  );

export const createWorkspace = (name: string): Promise<unknown> =>
  unwrap(api.POST("/api/v1/workspaces", { body: { name } }));
