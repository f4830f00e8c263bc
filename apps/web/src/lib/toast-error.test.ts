import { beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./api-client.ts";
import { toastError } from "./toast-error.ts";

const shown = vi.hoisted(() => [] as { title: string; description: string | undefined }[]);
vi.mock("sonner", () => ({
  toast: {
    error: (title: string, options: { description?: string }) => {
      shown.push({ title, description: options.description });
      return shown.length;
    },
    dismiss: () => {},
  },
}));

const failure = (status: number, requestId: string | null) =>
  new ApiError({ status, code: "X", message: "The server's reason.", fromServer: true, requestId });

describe("toastError", () => {
  beforeEach(() => {
    shown.length = 0;
  });

  it("gives an unexpected failure's reference, so support finds its log line", () => {
    toastError(failure(500, "req-123"), "Failed to save settings");
    expect(shown).toEqual([
      { title: "Failed to save settings", description: "The server's reason. Reference: req-123" },
    ]);
  });

  it("says only the reason of a refusal the person can act on", () => {
    toastError(failure(400, "req-123"), "Failed to save settings");
    toastError(null, "Copy failed", "Select the text and copy it yourself.");
    expect(shown).toEqual([
      { title: "Failed to save settings", description: "The server's reason." },
      { title: "Copy failed", description: "Select the text and copy it yourself." },
    ]);
  });
});
