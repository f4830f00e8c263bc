import {
  type AttachmentLimits,
  attachmentLimitsApi,
  DEFAULT_ATTACHMENT_LIMITS,
  formatBytes,
  UPLOADS_AT_ONCE_FROM_A_PAGE,
} from "@cove/contract/attachment-limits.ts";
import { type Attachment, attachmentAnswer } from "@cove/contract/attachments.ts";
import { useQuery } from "@tanstack/react-query";
import { ApiError, callRoute } from "./api-client.ts";

/** What a file over the server's per-file limit is told, before or after an upload. */
export const tooLargeMessage = (name: string, maxFileBytes: number) =>
  `${name} is too large: a file can be at most ${formatBytes(maxFileBytes)}.`;

/** Uploads waiting for one of the page's turns: the server takes only a few at once from one address. */
const waiting: (() => void)[] = [];
let sending = 0;

function turn(): Promise<void> {
  if (sending < UPLOADS_AT_ONCE_FROM_A_PAGE) {
    sending++;
    return Promise.resolve();
  }
  return new Promise((resolve) => waiting.push(resolve));
}

function endTurn(): void {
  const next = waiting.shift();
  if (next) next();
  else sending--;
}

/**
 * Uploads one file (its bytes as the body, its name in the address), reporting progress from 0 to 1. XMLHttpRequest
 * rather than fetch: only it reports upload progress. A file over the limit is refused here, before a byte is sent. At
 * most UPLOADS_AT_ONCE_FROM_A_PAGE are sent at once; the others wait their turn (at progress 0).
 */
export async function uploadFile<T = Attachment>(opts: {
  /** Where it goes, e.g. /api/tickets/{id}/attachments. */
  url: string;
  token: string | undefined;
  file: File;
  maxFileBytes: number;
  onProgress: (done: number) => void;
  /** What the answer holds (by default the stored file: { attachment }). */
  read?: (body: unknown) => T | null;
}): Promise<T> {
  const { file } = opts;
  const failed = (status: number, code: string, message: string, fromServer: boolean) =>
    new ApiError({ status, code, message, fromServer });
  const tooLarge = tooLargeMessage(file.name, opts.maxFileBytes);
  if (file.size > opts.maxFileBytes) throw failed(413, "PAYLOAD_TOO_LARGE", tooLarge, false);
  await turn();
  try {
    return await send<T>(opts, failed, tooLarge);
  } finally {
    endTurn();
  }
}

function send<T>(
  opts: Parameters<typeof uploadFile<T>>[0],
  failed: (status: number, code: string, message: string, fromServer: boolean) => ApiError,
  tooLarge: string,
): Promise<T> {
  const { file } = opts;
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `${opts.url}?filename=${encodeURIComponent(file.name)}`);
    if (opts.token) xhr.setRequestHeader("Authorization", `Bearer ${opts.token}`);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) opts.onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON (a proxy's page): the status says enough.
      }
      const read = opts.read ?? ((b: unknown) => (attachmentAnswer.safeParse(b).data?.attachment ?? null) as T | null);
      const answer = xhr.status === 201 ? read(body) : null;
      if (answer) return resolve(answer);
      const error = body as { error?: string; code?: string } | null;
      const message = error?.error
        ? `${file.name}: ${error.error}`
        : xhr.status === 413
          ? tooLarge
          : `${file.name} could not be uploaded.`;
      reject(failed(xhr.status, error?.code ?? "UPLOAD_FAILED", message, Boolean(error?.error)));
    };
    xhr.onerror = () => reject(failed(0, "UPLOAD_FAILED", `${file.name} could not be uploaded.`, false));
    xhr.send(file);
  });
}

/** A file served to whoever may read it, fetched with their token (the file's address alone opens nothing). */
export async function fetchFile(url: string, token: string | undefined, filename: string): Promise<Blob> {
  const response = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!response.ok) {
    throw new ApiError({
      status: response.status,
      code: "DOWNLOAD_FAILED",
      message: `${filename} could not be downloaded.`,
      fromServer: false,
    });
  }
  return response.blob();
}

/** The server's file limits (configuration), so an upload box can say them first; the defaults until known. */
export function useAttachmentLimits(): AttachmentLimits {
  const query = useQuery({
    queryKey: ["attachment-limits"],
    queryFn: async ({ signal }) => (await callRoute(attachmentLimitsApi.limits, { signal, anonymous: true })).limits,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  return query.data ?? DEFAULT_ATTACHMENT_LIMITS;
}
