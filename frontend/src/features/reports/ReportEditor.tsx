import { useEffect, useState } from "react";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import { TextField } from "../../components/TextField";
import { previewNotes } from "./api";
import { ItemPicker } from "./ItemPicker";
import { moved } from "./reportMath";
import { useUpdateReport } from "./queries";
import styles from "./Reports.module.css";
import { KIND_LABELS, type Report } from "./types";

function NotesEditor({ report }: { report: Report }) {
  const [title, setTitle] = useState(report.title);
  const [notes, setNotes] = useState(report.notes_md);
  const [preview, setPreview] = useState(report.notes_html);
  const update = useUpdateReport(report.id);
  useEffect(() => {
    const timer = window.setTimeout(() => void previewNotes(notes).then(setPreview, () => undefined), 300);
    return () => window.clearTimeout(timer);
  }, [notes]);
  const dirty = title !== report.title || notes !== report.notes_md;
  return (
    <Card title="Title and notes" subtitle="Markdown: **bold**, *italic*, lists, `code`, [links](https://…). Raw HTML is shown as text.">
      <div className={styles.stack}>
        <TextField label="Title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} />
        <div className={styles.editorGrid}>
          <label className={styles.field}>
            Notes (Markdown)
            <textarea value={notes} onChange={(e) => setNotes(e.target.value)} data-testid="notes-input" />
          </label>
          <div className={styles.field}>
            Preview
            <div className={`${styles.preview} ${styles.notes}`} data-testid="notes-preview" dangerouslySetInnerHTML={{ __html: preview }} />
          </div>
        </div>
        <div className={styles.row}>
          <Button onClick={() => update.mutate({ title, notes_md: notes })} disabled={!dirty || title.trim() === "" || update.isPending}>
            {update.isPending ? "Saving…" : "Save title and notes"}
          </Button>
          {dirty && <span className={styles.muted}>Unsaved changes.</span>}
          {!dirty && update.isSuccess && <span className={styles.muted}>Saved.</span>}
        </div>
        {update.isError && <ErrorBanner error={update.error} title="Could not save" />}
      </div>
    </Card>
  );
}

function ItemsEditor({ report }: { report: Report }) {
  const update = useUpdateReport(report.id);
  const ids = report.items.map((i) => i.id);
  const save = (next: number[]) => update.mutate({ item_ids: next });
  return (
    <Card title="Items" subtitle="Each item is a copy of its result when added: re-running an analysis does not change this report.">
      <div className={styles.stack}>
        {report.items.length === 0 ? (
          <p className={styles.muted}>No items yet: add one below.</p>
        ) : (
          <ol className={styles.itemList} aria-label="Report items">
            {report.items.map((item, index) => (
              <li key={item.id} className={styles.itemRow}>
                <span>
                  <strong>{item.title}</strong> <span className={styles.muted}>· {KIND_LABELS[item.kind]}</span>
                </span>
                <Button size="small" variant="ghost" aria-label={`Move ${item.title} up`} disabled={index === 0 || update.isPending} onClick={() => save(moved(ids, index, -1))}>
                  ↑
                </Button>
                <Button size="small" variant="ghost" aria-label={`Move ${item.title} down`} disabled={index === ids.length - 1 || update.isPending} onClick={() => save(moved(ids, index, 1))}>
                  ↓
                </Button>
                <Button size="small" variant="danger" aria-label={`Remove ${item.title}`} disabled={update.isPending} onClick={() => save(ids.filter((i) => i !== item.id))}>
                  Remove
                </Button>
              </li>
            ))}
          </ol>
        )}
        {update.isError && <ErrorBanner error={update.error} title="Could not change the items" />}
        <ItemPicker reportId={report.id} workspaceId={report.workspace_id} />
      </div>
    </Card>
  );
}

export function ReportEditor({ report }: { report: Report }) {
  return (
    <div className={styles.stack} data-testid="report-editor">
      <NotesEditor report={report} />
      <ItemsEditor report={report} />
    </div>
  );
}
