/**
 * Resumable upload of a large file: the server confirms an offset after every chunk, so a
 * dropped connection (or a closed tab) resumes where it stopped instead of starting over.
 * Protocol: POST /uploads, PUT /uploads/{id}/chunks?offset=N (each chunk with its SHA-256
 * when the browser can compute it), POST /uploads/{id}/complete.
 */
import { API_PREFIX } from "./client";
import { ApiError, networkError, parseJson, toApiError } from "./errors";
import type { Dataset } from "./models";
import type { UploadOptions, UploadResult } from "./uploadTypes";

export const CHUNK_BYTES = 8 * 1024 * 1024;
const RETRIES = 5;

interface UploadSession {
  id: string;
  offset_bytes: number;
  /** true when a session remembered from an earlier page was picked up again */
  resumed?: boolean;
}

interface XhrReply {
  status: number;
  body: unknown;
}

interface XhrRequest {
  method: string;
  url: string;
  body?: Blob | string;
  headers?: Record<string, string>;
  onUploaded?: (loadedBytes: number) => void;
  signal?: AbortSignal;
}

const cancelled = (): ApiError => new ApiError(0, "upload_cancelled", "The upload was cancelled.");

/** One request over XMLHttpRequest (for upload progress); resolves with any HTTP status. */
export function xhr({ method, url, body, headers = {}, onUploaded, signal }: XhrRequest): Promise<XhrReply> {
  return new Promise<XhrReply>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, url);
    request.withCredentials = true;
    request.setRequestHeader("Accept", "application/json");
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (e: ProgressEvent) => onUploaded?.(e.loaded);
    request.onload = () => resolve({ status: request.status, body: parseJson(request.responseText) });
    request.onerror = () => reject(networkError());
    request.onabort = () => reject(cancelled());
    if (signal?.aborted) {
      reject(cancelled());
      return;
    }
    signal?.addEventListener("abort", () => request.abort(), { once: true });
    request.send(body ?? null);
  });
}

function okBody(reply: XhrReply): unknown {
  if (reply.status >= 200 && reply.status < 300) return reply.body;
  throw toApiError(reply.status, reply.body);
}

/** Where this file's unfinished upload is remembered, per workspace. */
export function resumeKey(file: File, workspaceId: number | null): string {
  return `headroom.upload:${workspaceId ?? "-"}:${file.name}:${file.size}:${file.lastModified}`;
}

async function openSession(
  file: File,
  workspaceId: number | null,
  signal?: AbortSignal,
  parse: Record<string, string> = {},
): Promise<UploadSession> {
  const remembered = localStorage.getItem(resumeKey(file, workspaceId));
  if (remembered !== null) {
    const reply = await xhr({ method: "GET", url: `${API_PREFIX}/uploads/${remembered}`, signal });
    if (reply.status === 200) return { ...(reply.body as UploadSession), resumed: true };
  }
  const body = JSON.stringify({ name: file.name, size_bytes: file.size, workspace_id: workspaceId, ...parse });
  const headers = { "Content-Type": "application/json" };
  const reply = await xhr({ method: "POST", url: `${API_PREFIX}/uploads`, body, headers, signal });
  const session = okBody(reply) as UploadSession;
  localStorage.setItem(resumeKey(file, workspaceId), session.id);
  return session;
}

async function sha256Hex(chunk: Blob): Promise<string | null> {
  // undefined outside secure contexts (a server on plain http): the checksum is optional
  const subtle = globalThis.crypto.subtle as SubtleCrypto | undefined;
  if (subtle === undefined) return null;
  const bytes = Uint8Array.from(new Uint8Array(await readBytes(chunk))); // a copy in this realm
  const digest = await subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** FileReader rather than Blob.arrayBuffer(): it works in every browser and in jsdom. */
function readBytes(blob: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error("could not read the file"));
    reader.readAsArrayBuffer(blob);
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends the chunk at `offset`; returns the server's next offset, retrying network failures. */
async function sendChunk(
  session: UploadSession,
  offset: number,
  chunk: Blob,
  onUploaded: (loaded: number) => void,
  signal: AbortSignal | undefined,
  retryDelayMs: number,
  onReconnect: (offset: number) => void = () => undefined,
): Promise<number> {
  const checksum = await sha256Hex(chunk);
  const headers: Record<string, string> = { "Content-Type": "application/octet-stream" };
  if (checksum !== null) headers["X-Chunk-SHA256"] = checksum;
  const url = `${API_PREFIX}/uploads/${session.id}/chunks?offset=${offset}`;
  for (let attempt = 0; ; attempt++) {
    try {
      const reply = await xhr({ method: "PUT", url, body: chunk, headers, onUploaded, signal });
      if (attempt > 0 && reply.status < 500) onReconnect(reply.status === 409 ? (serverOffset(reply) ?? offset) : offset);
      if (reply.status === 409) return serverOffset(reply) ?? offset; // resume where the server is
      if (reply.status < 500) return (okBody(reply) as UploadSession).offset_bytes;
    } catch (error) {
      if (error instanceof ApiError && error.code === "upload_cancelled") throw error;
      if (attempt >= RETRIES) throw error;
    }
    if (attempt >= RETRIES) throw networkError();
    await pause(retryDelayMs * 2 ** attempt);
  }
}

function serverOffset(reply: XhrReply): number | null {
  const error = toApiError(reply.status, reply.body);
  const offset = error.detail?.offset_bytes;
  return typeof offset === "number" ? offset : null;
}

export interface ResumableOptions extends UploadOptions {
  chunkBytes?: number;
  retryDelayMs?: number;
}

export async function resumableUpload(options: ResumableOptions): Promise<UploadResult> {
  const { file, workspaceId, onProgress, signal, chunkBytes = CHUNK_BYTES, retryDelayMs = 1000 } = options;
  const session = await openSession(file, workspaceId, signal, options.parse);
  let offset = session.offset_bytes;
  const resume = (fromBytes: number, reason: "reload" | "reconnect") =>
    options.onResume?.({ fromBytes, totalBytes: file.size, reason });
  if (session.resumed === true && offset > 0) resume(offset, "reload");
  const onReconnect = (at: number) => resume(at, "reconnect");
  while (offset < file.size) {
    const start = offset;
    onProgress?.({ loadedBytes: start, totalBytes: file.size });
    const chunk = file.slice(start, Math.min(start + chunkBytes, file.size));
    const report = (loaded: number) => onProgress?.({ loadedBytes: start + loaded, totalBytes: file.size });
    offset = await sendChunk(session, start, chunk, report, signal, retryDelayMs, onReconnect);
  }
  onProgress?.({ loadedBytes: file.size, totalBytes: file.size });
  const reply = await xhr({ method: "POST", url: `${API_PREFIX}/uploads/${session.id}/complete`, signal });
  localStorage.removeItem(resumeKey(file, workspaceId));
  return { dataset: okBody(reply) as Dataset, created: reply.status === 202 };
}
