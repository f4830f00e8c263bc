import { randomBytes } from "node:crypto";
import type { MeAnswer } from "@cove/contract/auth.ts";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { bearer, createTestApp, onPostgres, registerOrg, registration, type TestApp } from "../helpers.ts";

let t: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
});

afterAll(async () => {
  await t?.close();
});

interface ErrorAnswer {
  error: string;
  code: string;
}

/** The error answer every failure must have: JSON with a human message and a machine code. */
function errorOf(res: LightMyRequestResponse): ErrorAnswer {
  expect(res.headers["content-type"]).toMatch(/^application\/json/);
  const body = res.json() as ErrorAnswer;
  expect(typeof body.error).toBe("string");
  expect(body.error.length).toBeGreaterThan(0);
  expect(typeof body.code).toBe("string");
  return body;
}

/** Expects the API's JSON error answer with this status and code, its message saying `says` (words in it, or a pattern). */
function expectError(res: LightMyRequestResponse, status: number, code: string, says: string | RegExp): void {
  expect(res.statusCode).toBe(status);
  const body = errorOf(res);
  expect(body.code).toBe(code);
  expect(body.error).toMatch(says);
}

describe("health", () => {
  it("reports ok and which database it uses", async () => {
    const res = await app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok", database: onPostgres ? "postgres" : "embedded" });
  });
});

describe("unknown API paths", () => {
  it("answer a JSON 404 instead of the web app", async () => {
    const res = await app.inject({ method: "GET", url: "/api/no-such-thing?x=1" });
    expectError(res, 404, "NOT_FOUND", "/api/no-such-thing");
  });

  it("answer a JSON 404 for other methods too", async () => {
    const res = await app.inject({ method: "DELETE", url: "/api/auth/nothing-here" });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).code).toBe("NOT_FOUND");
  });
});

describe("security headers", () => {
  function expectStrictCsp(res: LightMyRequestResponse) {
    const csp = res.headers["content-security-policy"];
    expect(typeof csp).toBe("string");
    const directives = new Map(
      String(csp)
        .split(";")
        .map((d) => d.trim().split(/\s+/))
        .filter((parts) => parts[0])
        .map((parts) => [parts[0] ?? "", parts.slice(1)]),
    );
    expect(directives.get("object-src")).toEqual(["'none'"]);
    expect(directives.get("base-uri")).toEqual(["'none'"]);
    const scriptSrc = directives.get("script-src") ?? directives.get("default-src");
    expect(scriptSrc).toBeDefined();
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  }

  it("are sent with API answers", async () => {
    const res = await app.inject({ method: "GET", url: "/api/health" });
    expect(res.statusCode).toBe(200);
    expectStrictCsp(res);
  });

  it("are sent with the web app's root page", async () => {
    const res = await app.inject({ method: "GET", url: "/" });
    // 200 with a built web app, a JSON 404 explaining how to build it otherwise: both carry the headers.
    expect([200, 404]).toContain(res.statusCode);
    expectStrictCsp(res);
  });

  it("are sent with error answers", async () => {
    const res = await app.inject({ method: "GET", url: "/api/nope" });
    expect(res.statusCode).toBe(404);
    expectStrictCsp(res);
  });
});

describe("bad input gets a clear 4xx, never a 5xx", () => {
  const login = "/api/auth/login";
  const postLogin = (payload: string, contentType = "application/json") =>
    app.inject({ method: "POST", url: login, headers: { "content-type": contentType }, payload });

  it("rejects a body that is not valid JSON", async () => {
    const res = await postLogin('{"email": "a@example.com", "password": ');
    expectError(res, 400, "BAD_REQUEST", "not valid JSON");
  });

  it("rejects a content type other than JSON with 415", async () => {
    const res = await postLogin("<login><email>a@example.com</email></login>", "application/xml");
    expectError(res, 415, "UNSUPPORTED_MEDIA_TYPE", "JSON");
  });

  it("rejects a form-encoded body with 415", async () => {
    const res = await postLogin("email=a%40example.com&password=whatever1", "application/x-www-form-urlencoded");
    expect(res.statusCode).toBe(415);
    expect(errorOf(res).code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("rejects an empty body sent as JSON", async () => {
    const res = await postLogin("");
    expectError(res, 400, "BAD_REQUEST", /empty/i);
  });

  it("rejects a body over 1 MiB with 413", async () => {
    const big = JSON.stringify({ email: "a@example.com", password: "x".repeat(1024 * 1024) });
    const res = await postLogin(big);
    expect(res.statusCode).toBe(413);
    expect(errorOf(res).code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("accepts a body just under the limit far enough to validate it", async () => {
    // A control for the 413 above: the limit is 1 MiB, not something smaller that would reject ordinary bodies.
    const body = JSON.stringify({ email: "a@example.com", password: "x".repeat(1000 * 1000) });
    const res = await postLogin(body);
    expect(res.statusCode).toBe(400);
    const answer = errorOf(res);
    expect(answer.code).toBe("VALIDATION_ERROR");
    expect(answer.error).toMatch(/at most 128/);
  });

  it("rejects a JSON array where an object is expected", async () => {
    const res = await postLogin('[{"email": "a@example.com", "password": "whatever1"}]');
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
  });

  it("rejects a JSON string where an object is expected", async () => {
    const res = await postLogin('"a@example.com"');
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe("VALIDATION_ERROR");
  });

  it("rejects JSON null and numbers where an object is expected", async () => {
    for (const payload of ["null", "42", "true"]) {
      const res = await postLogin(payload);
      expect(res.statusCode, payload).toBe(400);
      expect(errorOf(res).code, payload).toBe("VALIDATION_ERROR");
    }
  });

  it("rejects a plain-text body with a 4xx", async () => {
    const res = await postLogin("email=a@example.com", "text/plain");
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    errorOf(res);
  });

  it("rejects a NUL byte inside a string field and stores nothing", async () => {
    const reg = registration({ firstName: "Ada\u0000Evil" });
    const res = await app.inject({ method: "POST", url: "/api/auth/register", payload: reg });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).error).toContain("NUL");
    // The same registration without the NUL goes through: the address was not taken by the rejected one.
    const ok = await app.inject({
      method: "POST",
      url: "/api/auth/register",
      payload: { ...reg, firstName: "Ada" },
    });
    expect(ok.statusCode).toBe(201);
  });

  it("rejects a NUL byte nested in a field name", async () => {
    const res = await postLogin('{"email": "a@example.com", "password": "whatever1", "x\\u0000y": 1}');
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).error).toContain("NUL");
  });

  it("rejects a NUL byte in the query string", async () => {
    const res = await app.inject({ method: "GET", url: "/api/health?q=a%00b" });
    expectError(res, 400, "BAD_REQUEST", "NUL");
  });

  it("rejects a NUL byte in a profile update of a signed-in user and keeps the old name", async () => {
    const admin = await registerOrg(app, { firstName: "Grace" });
    const res = await app.inject({
      method: "PUT",
      url: "/api/auth/profile",
      headers: bearer(admin.token),
      payload: { firstName: "Gr\u0000ace" },
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).error).toContain("NUL");
    const me = await app.inject({ method: "GET", url: "/api/auth/me", headers: bearer(admin.token) });
    expect((me.json() as MeAnswer).user.firstName).toBe("Grace");
  });
});

describe("API documentation", () => {
  it("serves an OpenAPI document listing the routes", async () => {
    const res = await app.inject({ method: "GET", url: "/api/docs/json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/auth/login", "/api/auth/register", "/api/trial/status", "/api/health"]),
    );
    expect(doc.paths["/api/auth/login"]).toHaveProperty("post");
    expect(doc.paths["/api/auth/register"]).toHaveProperty("post");
    expect(doc.paths["/api/trial/status"]).toHaveProperty("get");
  });

  it("serves the documentation page as HTML", async () => {
    const res = await app.inject({ method: "GET", url: "/api/docs/" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.body).toContain("swagger");
  });
});

describe("every API route declares its access", () => {
  const freshApp = () =>
    buildApp({
      database: t.database,
      mail: { smtpUrl: undefined, from: "Cove <no-reply@cove.test>", outboxDir: t.outboxDir },
      publicUrl: "http://cove.test",
    });

  it("refuses to start with an /api route that does not say who may call it", async () => {
    const fresh = await freshApp();
    try {
      const start = async () => {
        await fresh.register(async (p) => {
          p.get("/api/undeclared", async () => ({ secret: true }));
        });
        await fresh.ready();
      };
      await expect(start()).rejects.toThrow("Route GET /api/undeclared does not declare its access");
    } finally {
      await fresh.close().catch(() => {});
    }
  });

  it("starts with routes that declare their access, and enforces it", async () => {
    const fresh = await freshApp();
    try {
      await fresh.register(async (p) => {
        p.get("/api/declared", { config: { access: "authenticated" } }, async () => ({ secret: true }));
        p.get("/api/declared-public", { config: { access: "public" } }, async () => ({ open: true }));
        // Outside /api (the web app's pages) nothing needs declaring.
        p.get("/plain-page", async () => "page");
      });
      await fresh.ready();
      const closed = await fresh.inject({ method: "GET", url: "/api/declared" });
      expect(closed.statusCode).toBe(401);
      expect(closed.json()).toMatchObject({ code: "UNAUTHORIZED" });
      const open = await fresh.inject({ method: "GET", url: "/api/declared-public" });
      expect(open.statusCode).toBe(200);
      expect(open.json()).toEqual({ open: true });
    } finally {
      await fresh.close();
    }
  });
});

describe("protected routes", () => {
  const protectedRoutes = [
    { method: "GET", url: "/api/auth/me" },
    { method: "GET", url: "/api/trial/status" },
  ] as const;

  async function expectUnauthorized(headers: Record<string, string>) {
    for (const route of protectedRoutes) {
      const res = await app.inject({ ...route, headers });
      expect(res.statusCode, route.url).toBe(401);
      expect(errorOf(res).code, route.url).toBe("UNAUTHORIZED");
    }
  }

  it("answer 401 without a token", async () => {
    await expectUnauthorized({});
  });

  it("answer 401 with a malformed token", async () => {
    await expectUnauthorized({ authorization: "Bearer abc" });
    await expectUnauthorized({ authorization: "Bearer not a token at all!!!!!!!!!!!!!" });
    await expectUnauthorized({ authorization: "Basic dXNlcjpwYXNzd29yZA==" });
    await expectUnauthorized({ authorization: "Bearer" });
  });

  it("answer 401 with a well-formed token that no session has", async () => {
    await expectUnauthorized(bearer(randomBytes(32).toString("base64url")));
  });

  it("answer 200 with the token of a real session (control)", async () => {
    const admin = await registerOrg(app);
    for (const route of protectedRoutes) {
      const res = await app.inject({ ...route, headers: bearer(admin.token) });
      expect(res.statusCode, route.url).toBe(200);
    }
  });
});
