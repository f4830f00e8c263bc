import { type Attachment, attachmentAnswer } from "@cove/contract/attachments.ts";
import { ApiError } from "../../../lib/api-client.ts";
import { getSession } from "../../../lib/session-storage.ts";

/**
 * Uploads one file for a reply (its bytes as the body), reporting progress from 0 to 1. XMLHttpRequest rather than
 * fetch: only it reports upload progress.
 */
export function uploadAttachment(
  ticketId: string,
  file: File,
  onProgress: (done: number) => void,
): Promise<Attachment> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(
      "POST",
      `/api/tickets/${encodeURIComponent(ticketId)}/attachments?filename=${encodeURIComponent(file.name)}`,
    );
    const token = getSession()?.token;
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON (a proxy's page): the status says enough.
      }
      const parsed = attachmentAnswer.safeParse(body);
      if (xhr.status === 201 && parsed.success) return resolve(parsed.data.attachment);
      const error = body as { error?: string; code?: string } | null;
      reject(
        new ApiError({
          status: xhr.status,
          code: error?.code ?? "UPLOAD_FAILED",
          message:
            xhr.status === 413
              ? `${file.name} is too large (at most 5 MB).`
              : (error?.error ?? `${file.name} could not be uploaded.`),
          fromServer: Boolean(error?.error),
        }),
      );
    };
    xhr.onerror = () =>
      reject(
        new ApiError({
          status: 0,
          code: "UPLOAD_FAILED",
          message: `${file.name} could not be uploaded.`,
          fromServer: false,
        }),
      );
    xhr.send(file);
  });
}
