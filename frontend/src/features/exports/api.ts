/** Deployable settings of a simulation or an analysis (GET .../export/{kind}). */
import { api, unwrap } from "../../api/client";
import type { ExportKind, ExportOut } from "../../api/models";

/** A run, or an analysis (and for a capacity analysis, the request class). */
export type ExportSource = { kind: "simulation" | "analysis"; id: number; serviceClass?: string };
export type SloFormat = "sloth" | "openslo" | "rules";

export function getExport(source: ExportSource, kind: ExportKind, format: SloFormat): Promise<ExportOut> {
  const query = { format, service_class: source.serviceClass };
  if (source.kind === "simulation") {
    return unwrap(api.GET("/api/v1/simulations/{simulation_id}/export/{kind}", { params: { path: { simulation_id: source.id, kind }, query } }));
  }
  return unwrap(api.GET("/api/v1/analyses/{analysis_id}/export/{kind}", { params: { path: { analysis_id: source.id, kind }, query } }));
}

/** What each kind is, in the picker's words. */
export const KIND_LABELS: Record<ExportKind, string> = {
  hpa: "Kubernetes HPA",
  keda: "KEDA ScaledObject",
  aws: "EC2 Auto Scaling policy",
  haproxy: "HAProxy backend",
  nginx: "nginx upstream",
  envoy: "Envoy listener and cluster",
  pools: "Pool sizes (gunicorn, Tomcat, HikariCP)",
  slo: "SLO (Sloth, OpenSLO, Prometheus rules)",
};

export const SCENARIO_KINDS: ExportKind[] = ["hpa", "keda", "aws", "haproxy", "nginx", "envoy", "pools", "slo"];
export const CAPACITY_KINDS: ExportKind[] = ["keda", "haproxy", "nginx", "envoy", "slo"];
export const CONCURRENCY_KINDS: ExportKind[] = ["pools"];

/** The kind a scenario's autoscaling policy exports as first. */
export function scenarioKind(policy: unknown): ExportKind {
  if (policy === "latency_slo") return "keda";
  if (policy === "step") return "aws";
  return "hpa";
}
