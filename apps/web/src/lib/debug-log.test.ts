import { afterEach, describe, expect, it, vi } from "vitest";
import {
  clearDebugLog,
  DEBUG_LOG_LIMIT,
  getDebugLog,
  logApiFailure,
  logBoundaryError,
  subscribeDebugLog,
} from "./debug-log.ts";

afterEach(() => {
  clearDebugLog();
  sessionStorage.clear();
});

const failure = { method: "GET", path: "/tickets", status: 500, code: "INTERNAL", message: "Something broke" };

describe("debug log", () => {
  it("records failed API calls, newest first, without the query string", () => {
    logApiFailure(failure);
    logApiFailure({ ...failure, method: "POST", path: "/tickets?q=secret%20customer", status: 422 });

    const [newest, oldest] = getDebugLog();
    expect(newest).toMatchObject({ kind: "api", method: "POST", path: "/tickets", status: 422 });
    expect(oldest).toMatchObject({ kind: "api", method: "GET", path: "/tickets", status: 500, code: "INTERNAL" });
    expect(JSON.stringify(getDebugLog())).not.toContain("secret");
  });

  it("records what an error boundary caught, with the page", () => {
    logBoundaryError(new TypeError("x is undefined"), "/dashboard");
    logBoundaryError({ status: 404, statusText: "Not Found", data: null }, "/tickets/1");

    const [response, error] = getDebugLog();
    expect(error).toMatchObject({ kind: "boundary", page: "/dashboard", message: "TypeError: x is undefined" });
    expect(error?.kind === "boundary" && error.stack).toContain("x is undefined");
    expect(response).toMatchObject({ kind: "boundary", page: "/tickets/1", message: "404 Not Found" });
  });

  it("keeps the latest entries only", () => {
    for (let i = 0; i < DEBUG_LOG_LIMIT + 5; i++) logApiFailure({ ...failure, path: `/calls/${i}` });
    const log = getDebugLog();
    expect(log).toHaveLength(DEBUG_LOG_LIMIT);
    expect(log[0]).toMatchObject({ path: `/calls/${DEBUG_LOG_LIMIT + 4}` });
  });

  it("survives a reload of the tab through sessionStorage", () => {
    logApiFailure(failure);
    expect(JSON.parse(sessionStorage.getItem("cove.debug-log") ?? "[]")).toHaveLength(1);
  });

  it("tells subscribers, returns a stable snapshot, and clears", () => {
    const listener = vi.fn();
    const unsubscribe = subscribeDebugLog(listener);
    logApiFailure(failure);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(getDebugLog()).toBe(getDebugLog());

    clearDebugLog();
    expect(getDebugLog()).toEqual([]);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    logApiFailure(failure);
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
