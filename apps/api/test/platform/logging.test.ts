import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactUrl } from "../../src/platform/logging.ts";
import { createTestApp, type TestApp } from "../helpers.ts";

// The app logs every request at info (production's level) to these lines, through the app's own serializers.
const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ logger: { level: "info", stream: { write: (line: string) => void lines.push(line) } } });
});

afterAll(async () => {
  await t?.close();
});

const TOKEN = "tok_9f8e7d6c5b4a3928171605f4e3d2c1b0a99887766554433";

describe("request logs", () => {
  it("never hold the single-use links' tokens, at info", async () => {
    const urls = [
      `/accept-invite?token=${TOKEN}`,
      `/reset-password?token=${TOKEN}`,
      `/portal/acme?token=${TOKEN}`,
      `/portal/acme/satisfaction?rating=5&token=${TOKEN}`,
      `/api/public/acme/portal/session?TOKEN=${TOKEN}`,
    ];
    for (const url of urls) await t.app.inject({ method: "GET", url });
    const logged = lines.join("");
    expect(logged).not.toContain(TOKEN);
    const requests = lines
      .map((line) => JSON.parse(line) as { msg?: string; req?: { url?: string } })
      .filter((entry) => entry.msg === "incoming request")
      .map((entry) => entry.req?.url);
    // The request is still there to read: its path and its other parameters.
    expect(requests).toEqual([
      "/accept-invite?token=[redacted]",
      "/reset-password?token=[redacted]",
      "/portal/acme?token=[redacted]",
      "/portal/acme/satisfaction?rating=5&token=[redacted]",
      "/api/public/acme/portal/session?TOKEN=[redacted]",
    ]);
  });
});

describe("request ids", () => {
  const logOf = (id: string) =>
    lines.map((line) => JSON.parse(line) as { reqId?: string; msg?: string }).filter((entry) => entry.reqId === id);

  it("keep the load balancer's X-Request-Id: answered in the header, the error body and every log line", async () => {
    const id = "haproxy-7f3a:00c1_1732881234.5";
    const res = await t.app.inject({ method: "GET", url: "/api/no-such-thing", headers: { "x-request-id": id } });
    expect(res.statusCode).toBe(404);
    expect(res.headers["x-request-id"]).toBe(id);
    expect(res.json()).toEqual({
      error: "There is no API endpoint GET /api/no-such-thing",
      code: "NOT_FOUND",
      requestId: id,
    });
    // The request's lines (it came in, it was answered), each with the id.
    expect(logOf(id).map((entry) => entry.msg)).toEqual(["incoming request", "request completed"]);
  });

  it("make one when none is sent, the same in the header, the body and the log", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/auth/login", payload: { email: "x" } });
    expect(res.statusCode).toBe(400);
    const id = res.headers["x-request-id"];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.json().requestId).toBe(id);
    expect(logOf(String(id)).length).toBeGreaterThanOrEqual(2);
  });

  it("replace one that is too long or could break a log line or a header", async () => {
    for (const sent of ["a".repeat(129), "two words", 'quote"d', "<script>", "tab\there", ""]) {
      const res = await t.app.inject({ method: "GET", url: "/api/health", headers: { "x-request-id": sent } });
      expect(res.statusCode).toBe(200);
      expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    }
    const longest = "b".repeat(128);
    const kept = await t.app.inject({ method: "GET", url: "/api/health", headers: { "x-request-id": longest } });
    expect(kept.headers["x-request-id"]).toBe(longest);
  });

  it("reach an answer the router refuses before any hook runs", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/tickets/%E0%A4%A", headers: { "x-request-id": "r-1" } });
    expect(res.statusCode).toBe(400);
    expect(res.headers["x-request-id"]).toBe("r-1");
    expect(res.json().requestId).toBe("r-1");
  });
});

describe("redactUrl", () => {
  it("redacts secret parameters however they are written, and leaves the rest", () => {
    expect(redactUrl("/tickets?status=open&page=2")).toBe("/tickets?status=open&page=2");
    expect(redactUrl("/x?a=1&token=abc&b=2")).toBe("/x?a=1&token=[redacted]&b=2");
    expect(redactUrl("/x?%74oken=abc")).toBe("/x?%74oken=[redacted]");
    expect(redactUrl("/x?access_token=abc&code=123&key=k&reset_token=r")).toBe(
      "/x?access_token=[redacted]&code=[redacted]&key=[redacted]&reset_token=[redacted]",
    );
    expect(redactUrl("/login?next=%2Faccept-invite%3Ftoken%3Dabc")).toBe("/login?next=[redacted]");
    expect(redactUrl("/login?next=%2Ftickets%3Fstatus%3Dopen")).toBe("/login?next=%2Ftickets%3Fstatus%3Dopen");
    expect(redactUrl("/x?token=abc#part")).toBe("/x?token=[redacted]#part");
    expect(redactUrl("/x?token")).toBe("/x?token");
    expect(redactUrl("/x?%E0%A4%A=1&token=abc")).toBe("/x?%E0%A4%A=1&token=[redacted]");
  });
});
