/**
 * The format names an upload may give (besides "auto"), as GET /datasets/formats lists
 * them. Kept here so the form renders at once; a backend test keeps this list equal to the
 * server's (backend/tests/datasets/test_upload_parse_options.py).
 */
export const KNOWN_FORMATS = [
  "caddy",
  "combined",
  "combined_latency_ms",
  "combined_latency_s",
  "combined_latency_us",
  "common",
  "common_latency_ms",
  "common_latency_s",
  "common_latency_us",
  "haproxy",
  "uwsgi",
  "vhost_combined",
  "vhost_combined_latency_ms",
  "vhost_combined_latency_s",
  "vhost_combined_latency_us",
  "vhost_common",
  "vhost_common_latency_ms",
  "vhost_common_latency_s",
  "vhost_common_latency_us",
  "w3c",
] as const;

export type KnownFormat = (typeof KNOWN_FORMATS)[number];

export type ZipMembers = "first" | "all";

/** How an upload asks to be parsed; empty fields mean "detect" / "first member". */
export interface ParseChoice {
  format: "auto" | KnownFormat;
  logFormat: string;
  zipMembers: ZipMembers;
}

export const AUTO_PARSE: ParseChoice = { format: "auto", logFormat: "", zipMembers: "first" };

/** The query / body fields the API takes for a choice (nothing for the defaults). */
export function parseParams(choice: ParseChoice): Record<string, string> {
  const params: Record<string, string> = {};
  const spec = choice.logFormat.trim();
  if (spec !== "") params.log_format = spec;
  else if (choice.format !== "auto") params.format = choice.format;
  if (choice.zipMembers !== "first") params.zip_members = choice.zipMembers;
  return params;
}
