/** The REST calls of alerts: rules of a dataset, channels of a workspace, history, tests. */
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";

type S = components["schemas"];
export type Rule = S["RuleOut"];
export type RuleIn = S["RuleIn"];
export type RuleUpdate = S["RuleUpdate"];
export type RuleKind = Rule["kind"];
export type Evaluation = S["EvaluationOut"];
export type EvaluationPage = S["EvaluationPage"];
export type Delivery = S["DeliveryOut"];
export type Channel = S["ChannelOut"];
export type ChannelCreated = S["ChannelCreated"];
export type ChannelIn = S["ChannelIn"];
export type ChannelKind = Channel["kind"];

const dataset = (id: number) => ({ params: { path: { dataset_id: id } } });
const channelPath = (ws: number, id: number) => ({ params: { path: { workspace_id: ws, channel_id: id } } });

export const listRules = (datasetId: number): Promise<Rule[]> =>
  unwrap(api.GET("/api/v1/datasets/{dataset_id}/alert-rules", dataset(datasetId)));

export const createRule = (datasetId: number, body: RuleIn): Promise<Rule> =>
  unwrap(api.POST("/api/v1/datasets/{dataset_id}/alert-rules", { ...dataset(datasetId), body }));

export const updateRule = (ruleId: number, body: RuleUpdate): Promise<Rule> =>
  unwrap(api.PATCH("/api/v1/alert-rules/{rule_id}", { params: { path: { rule_id: ruleId } }, body }));

export const deleteRule = (ruleId: number): Promise<unknown> =>
  unwrap(api.DELETE("/api/v1/alert-rules/{rule_id}", { params: { path: { rule_id: ruleId } } }));

export const evaluateNow = (datasetId: number): Promise<Evaluation[]> =>
  unwrap(api.POST("/api/v1/datasets/{dataset_id}/alert-rules/evaluate", dataset(datasetId)));

export const listEvaluations = (ruleId: number): Promise<EvaluationPage> =>
  unwrap(
    api.GET("/api/v1/alert-rules/{rule_id}/evaluations", {
      params: { path: { rule_id: ruleId }, query: { limit: 20 } },
    }),
  );

export const listChannels = (workspaceId: number): Promise<Channel[]> =>
  unwrap(api.GET("/api/v1/workspaces/{workspace_id}/alert-channels", { params: { path: { workspace_id: workspaceId } } }));

export const createChannel = (workspaceId: number, body: ChannelIn): Promise<ChannelCreated> =>
  unwrap(
    api.POST("/api/v1/workspaces/{workspace_id}/alert-channels", {
      params: { path: { workspace_id: workspaceId } },
      body,
    }),
  );

export const deleteChannel = (workspaceId: number, channelId: number): Promise<unknown> =>
  unwrap(api.DELETE("/api/v1/workspaces/{workspace_id}/alert-channels/{channel_id}", channelPath(workspaceId, channelId)));

export const testChannel = (workspaceId: number, channelId: number): Promise<Delivery> =>
  unwrap(api.POST("/api/v1/workspaces/{workspace_id}/alert-channels/{channel_id}/test", channelPath(workspaceId, channelId)));
