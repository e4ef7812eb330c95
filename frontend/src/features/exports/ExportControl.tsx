/** "Export": the settings a source gives in a deployable form: kind picker, the file, a copy button, what it sets. */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { ExportKind } from "../../api/models";
import { Button } from "../../components/Button";
import { getExport, KIND_LABELS, type ExportSource, type SloFormat } from "./api";
import styles from "./Export.module.css";

interface ExportControlProps {
  source: ExportSource;
  kinds: ExportKind[];
  initialKind?: ExportKind;
  label?: string;
  testId?: string;
}

export function ExportControl({ source, kinds, initialKind, label = "Export", testId = "export" }: ExportControlProps) {
  const [open, setOpen] = useState(false);
  return (
    <div className={styles.control} data-testid={testId}>
      <Button size="small" variant="secondary" onClick={() => setOpen(!open)} aria-expanded={open} data-testid={`${testId}-toggle`}>
        {open ? "Close export" : label}
      </Button>
      {open && <ExportPanel source={source} kinds={kinds} initialKind={initialKind ?? kinds[0] ?? "hpa"} />}
    </div>
  );
}

function ExportPanel({ source, kinds, initialKind }: { source: ExportSource; kinds: ExportKind[]; initialKind: ExportKind }) {
  const [kind, setKind] = useState<ExportKind>(initialKind);
  const [format, setFormat] = useState<SloFormat>("sloth");
  const [copied, setCopied] = useState(false);
  const query = useQuery({
    queryKey: ["export", source.kind, source.id, source.serviceClass, kind, format],
    queryFn: () => getExport(source, kind, format),
    retry: false,
    staleTime: Infinity,
  });
  const file = query.data;
  const copy = () => {
    if (file !== undefined) void navigator.clipboard.writeText(file.content).then(() => setCopied(true));
  };
  return (
    <div className={styles.panel} data-testid="export-panel">
      <div className={styles.row}>
        <label className={styles.field}>
          Format
          <select value={kind} onChange={(e) => { setKind(e.target.value as ExportKind); setCopied(false); }} data-testid="export-kind">
            {kinds.map((k) => (
              <option key={k} value={k}>{KIND_LABELS[k]}</option>
            ))}
          </select>
        </label>
        {kind === "slo" && (
          <label className={styles.field}>
            As
            <select value={format} onChange={(e) => { setFormat(e.target.value as SloFormat); setCopied(false); }} data-testid="export-slo-format">
              <option value="sloth">Sloth (prometheus/v1)</option>
              <option value="openslo">OpenSLO</option>
              <option value="rules">Prometheus rules</option>
            </select>
          </label>
        )}
        {file !== undefined && (
          <Button size="small" onClick={copy} data-testid="export-copy">
            {copied ? "Copied" : `Copy ${file.filename}`}
          </Button>
        )}
      </div>
      {query.isError ? (
        <p className={styles.refused} role="alert" data-testid="export-error">{query.error.message}</p>
      ) : file === undefined ? (
        <p className={styles.muted}>Preparing the file…</p>
      ) : (
        <>
          <p className={styles.note} data-testid="export-note"><strong>What this sets:</strong> {file.note}</p>
          <pre className={styles.content} data-testid="export-content">{file.content}</pre>
        </>
      )}
    </div>
  );
}
