import { UPLOADS_AT_ONCE_FROM_A_PAGE } from "@cove/contract/attachment-limits.ts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { uploadFile } from "./uploads.ts";

/** An upload the test answers when it chooses. */
class HeldXhr {
  static sent: HeldXhr[] = [];
  url = "";
  status = 0;
  responseText = "";
  upload = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader() {}
  send() {
    HeldXhr.sent.push(this);
  }
  answer() {
    this.status = 201;
    const filename = decodeURIComponent(this.url.split("filename=")[1] ?? "");
    this.responseText = JSON.stringify({
      attachment: { id: crypto.randomUUID(), comment_id: null, filename, content_type: "text/plain", size: 1 },
    });
    this.onload?.();
  }
}

afterEach(() => {
  HeldXhr.sent = [];
  vi.unstubAllGlobals();
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("uploading several files", () => {
  it("sends a few at a time (the server takes only a few at once from one address), the others in turn", async () => {
    vi.stubGlobal("XMLHttpRequest", HeldXhr);
    const names = ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt"];
    const uploads = names.map((name) =>
      uploadFile({
        url: "/api/attachments",
        token: "t",
        file: new File(["x"], name),
        maxFileBytes: 1024,
        onProgress: () => {},
      }),
    );
    await settle();
    expect(HeldXhr.sent).toHaveLength(UPLOADS_AT_ONCE_FROM_A_PAGE);
    HeldXhr.sent[0]?.answer();
    await settle();
    expect(HeldXhr.sent).toHaveLength(UPLOADS_AT_ONCE_FROM_A_PAGE + 1);
    for (let i = 1; i < names.length; i++) {
      HeldXhr.sent[i]?.answer();
      await settle();
    }
    expect((await Promise.all(uploads)).map((a) => a.filename)).toEqual(names);
    expect(HeldXhr.sent.map((x) => x.url.split("filename=")[1])).toEqual(names);
  });
});
