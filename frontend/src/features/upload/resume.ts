import type { UploadResume } from "../../api/upload";
import { formatBytes } from "../../lib/format";

/** What the upload page says when a resumable upload went on from where it stopped. */
export function resumeText({ fromBytes, totalBytes, reason }: UploadResume): string {
  const where = `${formatBytes(fromBytes)} of ${formatBytes(totalBytes)}`;
  return reason === "reload"
    ? `Resumed the earlier upload of this file at ${where}: those bytes were already on the server.`
    : `The connection dropped; resumed at ${where}.`;
}
