import type { Dataset } from "../../api/models";
import { formatBytes, formatDateTime } from "../../lib/format";

type Source = NonNullable<Dataset["source"]>;

const ORIGIN: Record<string, string> = {
  prometheus: "Prometheus",
  otlp: "OTLP traces",
  stream: "a log stream",
};

/** Where a kept dataset's data comes from, in words ("a Prometheus source", "OTLP traces"). */
export function sourceOrigin(source: Source): string {
  return ORIGIN[source.kind] ?? source.kind;
}

/** "refreshed … from Prometheus" or "last received … from OTLP traces": a Prometheus
 * source refreshes on its schedule, a receiver's dataset changes when data arrives. */
export function sourceCaption(source: Source): string {
  const origin = sourceOrigin(source);
  if (source.refreshed_at == null) return source.kind === "prometheus" ? "not refreshed yet" : `nothing received yet from ${origin}`;
  const when = formatDateTime(source.refreshed_at);
  if (source.kind !== "prometheus") return `last received ${when} from ${origin}`;
  return `${source.live ? "refreshed" : "last refreshed"} ${when} from ${origin}`;
}

/** Who made the dataset: the uploader, or the source or receiver that keeps it. */
export function keptBy(source: Source): string {
  return source.kind === "prometheus" ? "by a Prometheus source" : `by the ${source.kind === "otlp" ? "OTLP receiver" : "log stream receiver"}`;
}

/** A dataset's size as the list and header show it: an upload's file size; the bytes a
 * receiver has received so far (retention drops old requests, not this count); null for a
 * Prometheus source's intervals, which come from no file. */
export function sizeText(dataset: Pick<Dataset, "format" | "size_bytes" | "source">): string | null {
  const kind = dataset.source?.kind;
  if (dataset.format === "prometheus" || kind === "prometheus") return null;
  if (kind === "otlp" || kind === "stream") return `${formatBytes(dataset.size_bytes)} received`;
  return formatBytes(dataset.size_bytes);
}
