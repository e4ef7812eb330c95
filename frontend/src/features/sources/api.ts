/** The REST calls of data sources (Prometheus). */
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";

type S = components["schemas"];
export type PrometheusSource = S["PrometheusSourceOut"];
export type PrometheusSourceIn = S["PrometheusSourceIn"];
export type ConnectionTest = S["ConnectionTestOut"];
export type BreachList = S["BreachList"];

export const listSources = (): Promise<PrometheusSource[]> => unwrap(api.GET("/api/v1/sources/prometheus"));

export const createSource = (body: PrometheusSourceIn): Promise<PrometheusSource> =>
  unwrap(api.POST("/api/v1/sources/prometheus", { body }));

const path = (id: number) => ({ params: { path: { source_id: id } } });

export const testSource = (id: number): Promise<ConnectionTest> =>
  unwrap(api.POST("/api/v1/sources/prometheus/{source_id}/test", path(id)));

export const importNow = (id: number): Promise<PrometheusSource> =>
  unwrap(api.POST("/api/v1/sources/prometheus/{source_id}/import", path(id)));

export const deleteSource = (id: number): Promise<unknown> =>
  unwrap(api.DELETE("/api/v1/sources/prometheus/{source_id}", path(id)));

export type PrometheusLatency = S["PrometheusLatencyOut"];

export const datasetLatency = (datasetId: number): Promise<PrometheusLatency> =>
  unwrap(api.GET("/api/v1/sources/prometheus/datasets/{dataset_id}/latency", { params: { path: { dataset_id: datasetId } } }));

export const listBreaches = (id: number): Promise<BreachList> =>
  unwrap(api.GET("/api/v1/sources/prometheus/{source_id}/breaches", path(id)));

export type PrometheusTraffic = S["PrometheusTrafficOut"];
export type ClassTraffic = S["ClassTrafficOut"];

/** A source's dataset's figures over the intervals starting in [from, to) (epoch ms; none: all). */
export const datasetTraffic = (datasetId: number, range: { from?: number; to?: number } = {}): Promise<PrometheusTraffic> =>
  unwrap(api.GET("/api/v1/sources/prometheus/datasets/{dataset_id}/traffic", { params: { path: { dataset_id: datasetId }, query: range } }));
