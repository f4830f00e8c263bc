import { ApiError } from "./api-client.ts";
import { getSession } from "./session-storage.ts";

/**
 * Downloads a file the API serves to a signed-in caller (an export's ZIP): the call needs the session's token, so it
 * is fetched and handed to the browser under the name the API gives (else fallbackName). failedMessage is what a
 * refusal says.
 */
export async function downloadWithSession(path: string, fallbackName: string, failedMessage: string): Promise<void> {
  const token = getSession()?.token;
  const response = await fetch(`/api${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!response.ok) {
    throw new ApiError({ status: response.status, code: "DOWNLOAD_FAILED", message: failedMessage, fromServer: false });
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
