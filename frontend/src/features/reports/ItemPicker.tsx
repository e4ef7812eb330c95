import { useState } from "react";
import { Button } from "../../components/Button";
import { ErrorBanner } from "../../components/ErrorBanner";
import { useAddItem, useReadyDatasets, useSources } from "./queries";
import styles from "./Reports.module.css";
import { KIND_LABELS, type ItemKind } from "./types";

const KINDS = Object.keys(KIND_LABELS) as ItemKind[];

/** Adds a finished result to the report: its figures and charts are copied now. */
export function ItemPicker({ reportId, workspaceId }: { reportId: number; workspaceId: number }) {
  const [kind, setKind] = useState<ItemKind>("capacity");
  const [datasetId, setDatasetId] = useState<number | null>(null);
  const [sourceId, setSourceId] = useState<number | null>(null);
  const datasets = useReadyDatasets(workspaceId);
  const sources = useSources(kind, workspaceId, datasetId);
  const add = useAddItem(reportId);
  const needsDataset = kind !== "simulation" && kind !== "sweep";
  const chosen = kind === "traffic" ? datasetId : sourceId;
  const submit = () => {
    if (chosen !== null) add.mutate({ kind, source_id: chosen }, { onSuccess: () => setSourceId(null) });
  };
  const options = sources.data ?? [];
  return (
    <div className={styles.stack}>
      <div className={styles.row}>
        <label className={styles.field}>
          Kind
          <select value={kind} onChange={(e) => (setKind(e.target.value as ItemKind), setSourceId(null))} data-testid="item-kind">
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </label>
        {needsDataset && (
          <label className={styles.field}>
            Dataset
            <select value={datasetId ?? ""} onChange={(e) => (setDatasetId(e.target.value === "" ? null : Number(e.target.value)), setSourceId(null))} data-testid="item-dataset">
              <option value="">{datasets.isPending ? "Loading…" : "Choose a dataset"}</option>
              {(datasets.data ?? []).map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>
        )}
        {kind !== "traffic" && (
          <label className={styles.field}>
            Result
            <select value={sourceId ?? ""} onChange={(e) => setSourceId(e.target.value === "" ? null : Number(e.target.value))} data-testid="item-source" disabled={needsDataset && datasetId === null}>
              <option value="">{sources.isFetching ? "Loading…" : options.length === 0 ? "No finished result" : "Choose a result"}</option>
              {options.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
        )}
        <Button onClick={submit} disabled={chosen === null || add.isPending} data-testid="add-item">
          {add.isPending ? "Adding…" : "Add to report"}
        </Button>
      </div>
      {needsDataset && datasets.data?.length === 0 && <p className={styles.muted}>No ingested dataset in this workspace yet: upload a log first.</p>}
      {add.isError && <ErrorBanner error={add.error} title="Could not add the item" />}
    </div>
  );
}
