/**
 * HTTP/1.1 connections versus HTTP/2 streams (docs/methods/concurrency.md), the closed form of
 * headroom.engine.background.connections: payload rate = min(inflight x S / RTT,
 * share x B x S / (S + H)), share = its connections / all connections on the bottleneck.
 */
import type { CurveRow } from "../../charts/curveConfig";

export interface LinkInputs {
  rttMs: number;
  bandwidthMbitPerS: number;
  h1Connections: number;
  h2Streams: number;
  h1HeaderBytes: number;
  h2HeaderBytes: number;
  /** Competing connections on a shared bottleneck. */
  otherConnections: number;
}

export const DEFAULT_LINK: LinkInputs = {
  rttMs: 100,
  bandwidthMbitPerS: 80,
  h1Connections: 6,
  h2Streams: 12,
  h1HeaderBytes: 500,
  h2HeaderBytes: 50,
  otherConnections: 94,
};

export const MIN_PAYLOAD_BYTES = 100;
export const MAX_PAYLOAD_BYTES = 10_000_000;

/** Payload bytes/s of one client holding `inflight` requests on `connections`. */
export function payloadRate(
  sizeBytes: number,
  inflight: number,
  connections: number,
  headerBytes: number,
  link: LinkInputs,
  shared: boolean,
): number {
  const bandwidth = (link.bandwidthMbitPerS * 1e6) / 8;
  const share = shared ? connections / (connections + link.otherConnections) : 1;
  const latencyLimited = (inflight * sizeBytes) / (link.rttMs / 1000);
  const bandwidthLimited = (share * bandwidth * sizeBytes) / (sizeBytes + headerBytes);
  return Math.min(latencyLimited, bandwidthLimited);
}

export function h1Rate(sizeBytes: number, link: LinkInputs, shared = false): number {
  const k = link.h1Connections;
  return payloadRate(sizeBytes, k, k, link.h1HeaderBytes, link, shared);
}

export function h2Rate(sizeBytes: number, link: LinkInputs, shared = false): number {
  return payloadRate(sizeBytes, link.h2Streams, 1, link.h2HeaderBytes, link, shared);
}

/** Chart rows on log axes: x = log10(payload bytes), series = log10(payload bytes/s). */
export function curveRows(link: LinkInputs, points = 61): CurveRow[] {
  const lo = Math.log10(MIN_PAYLOAD_BYTES);
  const hi = Math.log10(MAX_PAYLOAD_BYTES);
  return Array.from({ length: points }, (_, i) => {
    const x = lo + ((hi - lo) * i) / (points - 1);
    const size = 10 ** x;
    return {
      x,
      h1: Math.log10(h1Rate(size, link)),
      h2: Math.log10(h2Rate(size, link)),
      h1Shared: Math.log10(h1Rate(size, link, true)),
      h2Shared: Math.log10(h2Rate(size, link, true)),
    };
  });
}

/** Problems with the inputs, by field, for the form. */
export function linkProblems(link: LinkInputs): Partial<Record<keyof LinkInputs, string>> {
  const problems: Partial<Record<keyof LinkInputs, string>> = {};
  if (!(link.rttMs > 0)) problems.rttMs = "RTT must be above 0 ms";
  if (!(link.bandwidthMbitPerS > 0)) problems.bandwidthMbitPerS = "bandwidth must be above 0 Mbit/s";
  if (!(Number.isInteger(link.h1Connections) && link.h1Connections >= 1)) problems.h1Connections = "at least 1 connection";
  if (!(Number.isInteger(link.h2Streams) && link.h2Streams >= 1)) problems.h2Streams = "at least 1 stream";
  if (!(link.h1HeaderBytes >= 0)) problems.h1HeaderBytes = "headers cannot be negative";
  if (!(link.h2HeaderBytes >= 0)) problems.h2HeaderBytes = "headers cannot be negative";
  if (!(Number.isInteger(link.otherConnections) && link.otherConnections >= 0)) {
    problems.otherConnections = "0 or more connections";
  }
  return problems;
}
