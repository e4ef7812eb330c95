import { describe, expect, it } from "vitest";
import { formatDateTime } from "../../lib/format";
import { keptBy, sourceCaption } from "./liveSource";

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
