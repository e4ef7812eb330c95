import { describe, expect, it } from "vitest";
import { formatDateTime } from "../../lib/format";
import { keptBy, sizeText, sourceCaption } from "./liveSource";

const at = "2026-11-26T12:00:00Z";

describe("a kept dataset's caption", () => {
  it("says when Prometheus last refreshed it", () => {
    expect(sourceCaption({ kind: "prometheus", source_id: 1, live: true, refreshed_at: at })).toBe(`refreshed ${formatDateTime(at)} from Prometheus`);
    expect(sourceCaption({ kind: "prometheus", source_id: 1, live: false, refreshed_at: at })).toBe(`last refreshed ${formatDateTime(at)} from Prometheus`);
    expect(sourceCaption({ kind: "prometheus", source_id: 1, live: true, refreshed_at: null })).toBe("not refreshed yet");
  });

  it("says when a receiver last received data", () => {
    expect(sourceCaption({ kind: "otlp", live: true, refreshed_at: at })).toBe(`last received ${formatDateTime(at)} from OTLP traces`);
    expect(sourceCaption({ kind: "stream", live: true, refreshed_at: null })).toBe("nothing received yet from a log stream");
    expect(keptBy({ kind: "stream", live: true, refreshed_at: null })).toBe("by the log stream receiver");
  });
});

describe("a dataset's size", () => {
  const source = (kind: string) => ({ kind, live: true, refreshed_at: at });
  it("is an upload's file size", () => {
    expect(sizeText({ format: "combined", size_bytes: 2_500_000, source: null })).toBe("2.5 MB");
  });

  it("is what a receiver has received, not what retention keeps", () => {
    expect(sizeText({ format: "otlp", size_bytes: 2_500_000, source: source("otlp") })).toBe("2.5 MB received");
    expect(sizeText({ format: "combined", size_bytes: 0, source: source("stream") })).toBe("0 B received");
  });

  it("is none for a Prometheus source's intervals (no file)", () => {
    expect(sizeText({ format: "prometheus", size_bytes: 0, source: { ...source("prometheus"), source_id: 1 } })).toBeNull();
    expect(sizeText({ format: "prometheus", size_bytes: 0, source: null })).toBeNull();
  });
});
