import { describe, expect, it, vi } from "vitest";
import { dismissErrorToasts, forgetErrorToast, rememberErrorToast } from "./error-toasts.ts";

describe("error toasts", () => {
  it("are all dismissed on leaving the screen, except those already closed, and only once", () => {
    const dismiss = vi.fn();
    rememberErrorToast(1, dismiss);
    rememberErrorToast(2, dismiss);
    rememberErrorToast(3, dismiss);
    forgetErrorToast(2);
    dismissErrorToasts();
    expect(dismiss.mock.calls).toEqual([[1], [3]]);
    dismissErrorToasts();
    expect(dismiss).toHaveBeenCalledTimes(2);
  });
});
