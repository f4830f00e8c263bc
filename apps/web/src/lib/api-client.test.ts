import { messageAnswer } from "@cove/contract/auth.ts";
import { helpCenterApi, kbApi } from "@cove/contract/kb.ts";
import { describe, expect, it, vi } from "vitest";
import { json, storeSession } from "../test/render-app.tsx";
import { ApiError, apiRequest, callRoute, errorText } from "./api-client.ts";
import { getSession } from "./session-storage.ts";

function answer(response: Response | Error) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => {
    if (response instanceof Error) throw response;
    return response;
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe("apiRequest", () => {
  it("turns an error answer into an ApiError with the server's text, code and details", async () => {
    answer(
      json(400, {
        error: "Check the highlighted fields",
        code: "VALIDATION_ERROR",
        details: [{ path: "email", message: "Enter a valid email address" }],
      }),
    );
    const error = await failure(apiRequest("/auth/login", { method: "POST", body: {}, schema: messageAnswer }));

    expect(error).toMatchObject({ status: 400, code: "VALIDATION_ERROR", message: "Check the highlighted fields" });
    expect(error.details).toEqual([{ path: "email", message: "Enter a valid email address" }]);
    expect(errorText(error, "Login failed")).toBe("Check the highlighted fields");
  });

  it("explains a network failure and leaves the screen's fallback as the headline", async () => {
    answer(new TypeError("Failed to fetch"));
    const error = await failure(apiRequest("/auth/logout", { method: "POST", schema: messageAnswer }));

    expect(error).toMatchObject({ status: 0, code: "NETWORK_ERROR", fromServer: false });
    expect(error.message).toMatch(/Cannot reach the server/);
    expect(errorText(error, "Login failed")).toBe("Login failed");
  });

  it("does not trust an answer that is not JSON", async () => {
    answer(new Response("<html>Bad gateway</html>", { status: 502 }));
    const error = await failure(apiRequest("/trial/status", { schema: messageAnswer }));

    expect(error).toMatchObject({ status: 502, code: "HTTP_ERROR", fromServer: false, requestId: null });
  });

  it("keeps the id the server logged the request under, from its answer or its header", async () => {
    answer(json(500, { error: "Something went wrong on our side", code: "INTERNAL", requestId: "req-123" }));
    const logged = await failure(apiRequest("/tickets", { schema: messageAnswer }));
    expect(logged).toMatchObject({ status: 500, requestId: "req-123" });

    answer(new Response("<html>Bad gateway</html>", { status: 502, headers: { "x-request-id": "lb-456" } }));
    const fromBalancer = await failure(apiRequest("/tickets", { schema: messageAnswer }));
    expect(fromBalancer.requestId).toBe("lb-456");
  });

  it("sends the stored token and ends the session when the server rejects it", async () => {
    storeSession();
    const fetchMock = answer(json(401, { error: "Your session has ended", code: "UNAUTHORIZED" }));

    await failure(apiRequest("/auth/me", { schema: messageAnswer }));

    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).get("Authorization")).toBe("Bearer stored-token");
    expect(getSession()).toBeNull();
  });

  it("rejects a success answer that does not match the contract", async () => {
    answer(json(200, { unexpected: true }));
    const error = await failure(apiRequest("/auth/logout", { method: "POST", schema: messageAnswer }));

    expect(error.code).toBe("INVALID_RESPONSE");
  });
});

describe("callRoute", () => {
  it("fills the route's path, encoding each param, writes its query and checks the answer with its schema", async () => {
    const fetchMock = answer(json(200, { message: "File removed" }));
    const done = await callRoute(kbApi.removeFile, { params: { id: "a/b", fileId: "f 1" } });
    expect(done).toEqual({ message: "File removed" });
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/kb/articles/a%2Fb/files/f%201");
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe("DELETE");

    const search = answer(json(200, { results: [] }));
    await callRoute(helpCenterApi.search, { params: { orgSlug: "acme" }, query: { q: "return label" } });
    expect(search.mock.calls[0]?.[0]).toBe("/api/public/acme/kb/search?q=return+label");

    answer(json(200, { unexpected: true }));
    const error = await failure(callRoute(kbApi.listCategories, {}));
    expect(error.code).toBe("INVALID_RESPONSE");
  });
});
