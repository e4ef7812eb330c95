import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as teams from "./api";

export const teamKeys = {
  members: (ws: number) => ["team", ws, "members"] as const,
  invitations: (ws: number) => ["team", ws, "invitations"] as const,
  tokens: (ws: number) => ["team", ws, "tokens"] as const,
};

export const useMembers = (ws: number) =>
  useQuery({ queryKey: teamKeys.members(ws), queryFn: () => teams.listMembers(ws) });

export const useInvitations = (ws: number, enabled: boolean) =>
  useQuery({ queryKey: teamKeys.invitations(ws), queryFn: () => teams.listInvitations(ws), enabled });

export const useTokens = (ws: number) =>
  useQuery({ queryKey: teamKeys.tokens(ws), queryFn: () => teams.listTokens(ws) });

/** A mutation that refreshes the workspace's team data (and /me: roles may change). */
export function useTeamMutation<Args, Out>(call: (args: Args) => Promise<Out>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ["team"] });
    },
  });
}
