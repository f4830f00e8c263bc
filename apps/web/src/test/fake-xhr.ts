import { afterEach, beforeEach, vi } from "vitest";

/**
 * Plays the server for uploads (XMLHttpRequest, which the app uses for its progress events): each file sent is answered
 * by FakeXhr.answer (by default: stored, as the API answers, with the id FakeXhr.nextId).
 */
export class FakeXhr {
  static sent: { url: string; headers: Record<string, string>; body: File }[] = [];
  static readonly stored = (body: File): { status: number; body: unknown } => ({
    status: 201,
    body: {
      attachment: {
        id: FakeXhr.nextId(),
        comment_id: null,
        filename: body.name,
        content_type: body.type,
        size: body.size,
      },
    },
  });
  static answer = FakeXhr.stored;
  static ids: string[] = [];
  static nextId = () => FakeXhr.ids.shift() ?? "9b2f6c1d-3e4a-4b5c-8d7e-0f1a2b3c4d5e";
  static reset() {
    FakeXhr.sent = [];
    FakeXhr.ids = [];
    FakeXhr.answer = FakeXhr.stored;
  }

  url = "";
  headers: Record<string, string> = {};
  status = 0;
  responseText = "";
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: File) {
    FakeXhr.sent.push({ url: this.url, headers: this.headers, body });
    setTimeout(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 2 });
      const answer = FakeXhr.answer(body);
      this.status = answer.status;
      this.responseText = JSON.stringify(answer.body);
      this.onload?.();
    }, 10);
  }
}

/**
 * For a file of tests that upload: in each test XMLHttpRequest is FakeXhr and object URLs name a blob, and each test
 * starts from a fresh FakeXhr.
 */
export function fakeUploadsInEachTest() {
  beforeEach(() => {
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: vi.fn(() => "blob:file"), revokeObjectURL: vi.fn() }));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeXhr.reset();
  });
}
