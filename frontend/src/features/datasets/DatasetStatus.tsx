import type { Dataset } from "../../api/models";
import { Badge, type BadgeTone } from "../../components/Badge";

const STATUS: Record<Dataset["status"], { tone: BadgeTone; label: string }> = {
  uploaded: { tone: "info", label: "Queued" },
  processing: { tone: "info", label: "Processing" },
  ready: { tone: "success", label: "Ready" },
  failed: { tone: "danger", label: "Failed" },
};

export function DatasetStatus({ status }: { status: Dataset["status"] }) {
  const s = STATUS[status];
  return <Badge tone={s.tone}>{s.label}</Badge>;
}
