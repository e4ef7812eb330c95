import { useState } from "react";
import { Link } from "react-router";
import type { UploadResume } from "../../api/upload";
import { Banner } from "../../components/Banner";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorBanner } from "../../components/ErrorBanner";
import { PageHeader } from "../../components/PageHeader";
import { ProgressBar } from "../../components/ProgressBar";
import { formatByteRate, formatBytes, formatEta } from "../../lib/format";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { JobProgress } from "../jobs/JobProgress";
import { jobFailureHint } from "../jobs/jobFailure";
import { useCanWrite } from "../workspaces/useRole";
import { useWorkspace } from "../workspaces/workspaceContext";
import { AdvancedOptions } from "./AdvancedOptions";
import { resumeText } from "./resume";
import { DropZone } from "./DropZone";
import { AUTO_PARSE, type ParseChoice } from "./formats";
import { uploadStats, type FileInfo, type UploadState } from "./uploadMachine";
import { useUpload } from "./useUpload";
import styles from "./UploadPage.module.css";

function UploadBar({ state }: { state: UploadState }) {
  if (state.phase === "uploading") {
    const s = uploadStats(state);
    const sent = `${formatBytes(state.loadedBytes)} of ${formatBytes(state.totalBytes)}`;
    const rate = s.bytesPerS === null ? "" : ` · ${formatByteRate(s.bytesPerS)} · ${formatEta(s.etaS)}`;
    return (
      <>
        <ProgressBar value={s.fraction} label="Uploading" caption={sent + rate} testId="upload-progress" />
        {state.resume !== undefined && <ResumeNote resume={state.resume} />}
      </>
    );
  }
  if (state.phase === "idle" || state.phase === "failed") return null;
  const caption = `${formatBytes(state.file.sizeBytes)} sent`;
  return <ProgressBar value={1} label="Uploaded" caption={caption} tone="success" testId="upload-progress" />;
}

function ResumeNote({ resume }: { resume: UploadResume }) {
  return (
    <p className={styles.resumed} data-testid="upload-resumed" role="status">
      {resumeText(resume)}
    </p>
  );
}

function FileHeader({ file }: { file: FileInfo }) {
  return (
    <div className={styles.file}>
      <span className={styles.fileName}>{file.name}</span>
      <span className={styles.fileSize}>{formatBytes(file.sizeBytes)}</span>
    </div>
  );
}

function Progress({ state, onCancel }: { state: UploadState; onCancel: () => void }) {
  if (state.phase === "idle" || state.phase === "failed") return null;
  const processing = state.phase === "processing" || (state.phase === "done" && state.created);
  return (
    <Card title={state.phase === "done" ? "Done" : "Progress"}>
      <FileHeader file={state.file} />
      <div className={styles.bars}>
        <UploadBar state={state} />
        {state.phase === "processing" && state.job !== null && <JobProgress job={state.job} />}
        {state.phase === "processing" && state.job === null && (
          <ProgressBar value={0} label="Waiting for processing to start" testId="job-progress" />
        )}
        {processing && state.phase === "done" && (
          <ProgressBar value={1} label="Done" caption="Opening the dataset…" tone="success" testId="job-progress" />
        )}
      </div>
      {state.phase === "uploading" && (
        <div className={styles.actions}>
          <Button variant="secondary" size="small" onClick={onCancel}>
            Cancel upload
          </Button>
        </div>
      )}
    </Card>
  );
}

function Failure({ state, onRetry }: { state: Extract<UploadState, { phase: "failed" }>; onRetry: () => void }) {
  const title =
    state.stage === "processing"
      ? "The log could not be processed"
      : state.error.status >= 400 && state.error.status < 500
        ? "The file was not accepted"
        : "The upload failed";
  const action = (
    <div className={styles.actions}>
      <Button size="small" onClick={onRetry}>
        Choose another file
      </Button>
      {state.dataset !== null && <Link to={`/datasets/${state.dataset.id}`}>Open the dataset</Link>}
    </div>
  );
  return <ErrorBanner error={state.error} title={title} hint={jobFailureHint(state.error)} action={action} />;
}

export function UploadPage() {
  const { current } = useWorkspace();
  const canWrite = useCanWrite();
  if (current !== null && !canWrite) return <ViewerNotice workspace={current.name} />;
  return <Uploader />;
}

/** Viewers read; uploading needs the editor role (the API would refuse it). */
function ViewerNotice({ workspace }: { workspace: string }) {
  useDocumentTitle("Upload");
  return (
    <>
      <PageHeader title="Upload a log" subtitle={`Into workspace ${workspace}`} />
      <Banner tone="info" title="Viewers cannot upload" testId="upload-viewer">
        You are a viewer of {workspace}: ask one of its owners for the editor role to upload logs, or switch to a workspace where you are an editor.
      </Banner>
    </>
  );
}

function Uploader() {
  const { current } = useWorkspace();
  const { state, start, cancel, reset } = useUpload(current?.id ?? null);
  const [choice, setChoice] = useState<ParseChoice>(AUTO_PARSE);
  useDocumentTitle(state.phase === "uploading" ? `Uploading ${state.file.name}` : "Upload");
  const canChoose = state.phase === "idle" || state.phase === "failed";
  return (
    <>
      <PageHeader
        title="Upload a log"
        subtitle={current ? `Into workspace ${current.name}` : undefined}
      />
      <div className={styles.stack}>
        {state.phase === "done" && !state.created && (
          <Banner tone="info" title="Already uploaded" testId="duplicate-notice">
            This file is already in the workspace as {state.dataset.name}. Opening it…
          </Banner>
        )}
        {state.phase === "failed" && <Failure state={state} onRetry={reset} />}
        {canChoose && <DropZone onFile={(file) => start(file, choice)} />}
        {canChoose && <AdvancedOptions choice={choice} onChange={setChoice} />}
        <Progress state={state} onCancel={cancel} />
      </div>
    </>
  );
}
