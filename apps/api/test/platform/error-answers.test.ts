/**
 * Every bad input gets a clear 4xx in the {error, code} shape, with words a person understands, on every route the API
 * has: the routes are read from the OpenAPI document, so a new route is checked without being listed here.
 */
import { randomUUID } from "node:crypto";
import net from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { findOrCreateContact, startContactSession } from "../../src/modules/contacts/contacts.service.ts";
import { withSystem } from "../../src/platform/tenancy.ts";
import { bearer, errorAnswer, orgForFile, testAppForFile } from "../helpers.ts";

/** A customer of the admin's organization signed in to the portal: the token the portal's routes take. */
let customerToken: string;
let routes: Route[];
const t = testAppForFile();
const admin = orgForFile(t);
beforeAll(async () => {
  customerToken = await withSystem(t.database.db, admin.user.organizationId, "test", async (ctx) => {
    const contactId = await findOrCreateContact(ctx, { name: "Ana Ruiz", email: "ana@example.com" });
    return (await startContactSession(ctx, contactId, "portal", 3_600_000)).token;
  });
  routes = await readRoutes();
});

type Method = "GET" | "POST" | "PUT" | "DELETE";
interface Route {
  method: Method;
  /** OpenAPI form: /api/tickets/{id} */
  path: string;
  signedIn: boolean;
  body: string[];
  query: string[];
}

interface OpenApiOperation {
  security?: unknown[];
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

async function readRoutes(): Promise<Route[]> {
  const doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json() as {
    paths: Record<string, Record<string, OpenApiOperation>>;
  };
  const found: Route[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const schema = op.requestBody?.content?.["application/json"]?.schema;
      found.push({
        method: method.toUpperCase() as Method,
        path,
        signedIn: !(Array.isArray(op.security) && op.security.length === 0),
        body: Object.keys(schema?.properties ?? {}),
        query: (op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name),
      });
    }
  }
  return found;
}

/** A concrete URL for a route: its ids are ids of nothing, its slugs the admin's help center. */
const urlOf = (route: Route, id: string = randomUUID()) =>
  route.path
    .replace("{id}", id)
    .replace("{orgSlug}", encodeURIComponent(admin.user.organizationSlug))
    .replace("{articleSlug}", "no-such-article");

// Public routes are rate-limited per address: every request here comes from its own.
let visitor = 0;
const nextAddress = () => {
  visitor++;
  return `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`;
};

function send(route: Route, opts: { url?: string; payload?: string; anonymous?: boolean; query?: string } = {}) {
  const headers: Record<string, string> = opts.payload === undefined ? {} : { "content-type": "application/json" };
  // The portal's and the chat visitor's routes are a signed-in customer's; every other signed-in route is staff's.
  const customers = route.path.startsWith("/api/portal/") || route.path.startsWith("/api/public/{orgSlug}/chat/");
  const token = customers ? customerToken : admin.token;
  if (route.signedIn && !opts.anonymous) Object.assign(headers, bearer(token));
  return t.app.inject({
    method: route.method,
    url: `${opts.url ?? urlOf(route)}${opts.query ? `?${opts.query}` : ""}`,
    headers,
    payload: opts.payload,
    remoteAddress: nextAddress(),
  });
}

/**
 * An error answer in the API's one shape: {error, code, details?, requestId?} with a human message, nothing else. Only
 * what Node's HTTP parser refuses before there is a request has no requestId.
 */
function expectErrorShape(body: string, status: number) {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  expect(Object.keys(parsed).filter((k) => !["error", "code", "details", "requestId"].includes(k))).toEqual([]);
  if ("requestId" in parsed) expect(parsed.requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(typeof parsed.error).toBe("string");
  expect(parsed.code).toMatch(/^[A-Z_]+$/);
  expect(status).toBeGreaterThanOrEqual(400);
  expect(status).toBeLessThan(500);
}

const writes = () => routes.filter((r) => r.method === "POST" || r.method === "PUT");

/**
 * Routes whose body is bytes checked against a signature before anything parses them (the payment provider's
 * webhook): a nested body is refused there too with a clear 400, by its signature.
 */
const RAW_BODY_ROUTES = new Set(["POST /api/billing/webhook"]);

describe("deeply nested JSON", () => {
  it("answers a clear 400 on every write route, signed in or not, however deep", async () => {
    const problems: string[] = [];
    for (const depth of [3_000, 100_000]) {
      const nested = `${"[".repeat(depth)}${"]".repeat(depth)}`;
      for (const route of writes()) {
        for (const payload of [nested, `{"a":${nested}}`]) {
          const res = await send(route, { payload });
          const raw = RAW_BODY_ROUTES.has(`${route.method} ${route.path}`);
          const ok = res.statusCode === 400 && (raw || /nested too deeply/.test(res.json().error));
          if (!ok)
            problems.push(`${route.method} ${route.path} depth ${depth}: ${res.statusCode} ${res.body.slice(0, 150)}`);
          else expectErrorShape(res.body, res.statusCode);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("still takes ordinary nesting", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/chat/ai-response",
      headers: bearer(admin.token),
      payload: { message: "Where is my order?", conversation: [{ role: "user", content: "Hi" }] },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe("signed-in routes called without a session", () => {
  it("answer 401 before looking at the body, whatever it holds", async () => {
    const problems: string[] = [];
    const signedInWrites = writes().filter((r) => r.signedIn);
    expect(signedInWrites.length).toBeGreaterThan(10);
    for (const route of signedInWrites) {
      for (const payload of ["{}", '{"unexpected": [1, 2]}', "{not json", "[]"]) {
        const res = await send(route, { payload, anonymous: true });
        if (res.statusCode !== 401) {
          problems.push(`${route.method} ${route.path} ${payload}: ${res.statusCode}`);
          continue;
        }
        expect(res.json()).toEqual(errorAnswer("Your session has ended. Please sign in again.", "UNAUTHORIZED"));
        // Refused before the route, it still carries the security headers every answer has.
        expect(res.headers["content-security-policy"]).toContain("object-src 'none'");
      }
    }
    expect(problems).toEqual([]);
  });
});

/** zod's own English, which is meant for developers: "Invalid input: expected boolean, received string". */
const ZOD_WORDING =
  /Invalid input|Invalid option|Invalid (string|number|element|key|union|email|UUID|URL)|Too (big|small):|Unrecognized key|expected \w+, received|received \w+$|^Required$/i;

describe("validation messages", () => {
  const WRONG = [true, 12_345, -1, 1.5, "text", "", [], [1, "two"], {}, { nested: true }, null];

  function wordingProblems(route: Route, sent: string, status: number, body: string): string[] {
    if (status !== 400) return [];
    const answer = JSON.parse(body) as { error: string; details?: { path: string; message: string }[] };
    const messages = [answer.error, ...(answer.details ?? []).map((d) => d.message)];
    return messages.filter((m) => ZOD_WORDING.test(m)).map((m) => `${route.method} ${route.path} ${sent}: "${m}"`);
  }

  it("speak of the field by its name and say what it must be, for every field of every body", async () => {
    const problems: string[] = [];
    let checked = 0;
    // Routes that take a body (sign-out takes none, and would end the session these requests use).
    for (const route of writes().filter((r) => r.body.length > 0)) {
      const bodies = [
        ...route.body.flatMap((field) => WRONG.map((value) => JSON.stringify({ [field]: value }))),
        ...["[]", '"text"', "12", "null", "true"],
      ];
      for (const payload of bodies) {
        const res = await send(route, { payload });
        expect(res.statusCode, `${route.method} ${route.path} ${payload}: ${res.body}`).toBeLessThan(500);
        problems.push(...wordingProblems(route, payload, res.statusCode, res.body));
        if (res.statusCode === 400) checked++;
      }
    }
    expect(checked).toBeGreaterThan(300);
    expect(problems).toEqual([]);
    // Over a thousand requests, growing with every route's body: on a busy 2-core machine past the default 30 s.
  }, 120_000);

  it("do the same for every query parameter", async () => {
    const problems: string[] = [];
    for (const route of routes.filter((r) => r.query.length > 0)) {
      for (const name of route.query) {
        for (const value of ["abc", "-1", "1.5", "1e400", "", "x".repeat(300), "none"]) {
          const query = `${name}=${encodeURIComponent(value)}`;
          const res = await send(route, { query });
          expect(res.statusCode, `${route.path}?${query}: ${res.body}`).toBeLessThan(500);
          problems.push(...wordingProblems(route, query, res.statusCode, res.body));
        }
        // A parameter given twice arrives as a list.
        const twice = await send(route, { query: `${name}=a&${name}=b` });
        expect(twice.statusCode).toBeLessThan(500);
        problems.push(...wordingProblems(route, `${name} twice`, twice.statusCode, twice.body));
      }
    }
    expect(problems).toEqual([]);
  });

  it("keep the spec's messages and give the ones a person asked for", async () => {
    const login = routes.find((r) => r.path === "/api/auth/login") as Route;
    const res = await send(login, {
      payload: JSON.stringify({ email: "a@example.com", password: "x", rememberMe: "yes" }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("Remember me must be true or false");
    const body = await send(login, { payload: "[]" });
    expect(body.json().error).toBe("Send the request body as a JSON object");
  });
});

describe("malformed ids", () => {
  /** A body each :id route accepts, so that what is checked is the id. */
  const VALID_BODY: Record<string, object> = {
    "PUT /api/tickets/{id}": { status: "open" },
    "POST /api/tickets/{id}/comments": { body: "Thanks!" },
    "PUT /api/users/{id}": { role: "agent" },
    "PUT /api/kb/articles/{id}": { title: "Returns" },
    "POST /api/kb/articles/{id}/feedback": { helpful: true },
    "POST /api/portal/tickets/{id}/comments": { body: "Thanks!" },
    "PUT /api/portal/tickets/{id}/satisfaction": { rating: "good" },
    "POST /api/chat/sessions/{id}/messages": { message: "Hello" },
    "PUT /api/chat/sessions/{id}": { status: "closed" },
    "POST /api/public/{orgSlug}/chat/sessions/{id}/messages": { message: "Hello" },
    "PUT /api/public/{orgSlug}/chat/sessions/{id}/rating": { rating: "good" },
    "PUT /api/public/{orgSlug}/chat/sessions/{id}/messages/{messageId}/feedback": { helpful: true },
    "POST /api/chat/sessions/{id}/messages/{messageId}/wrong-answer": { not_covered: true },
    "PUT /api/automation/rules/{id}": { isActive: false },
    "PUT /api/canned-replies/{id}": { title: "Thanks", body: "Thanks!" },
    "PUT /api/email/mailboxes/{id}": { host: "imap.example.com", port: 993, tls: true, user: "support", password: "x" },
    "POST /api/contacts/{id}/erase": { confirmEmail: "ana@example.com" },
    "PUT /api/webhooks/{id}": { enabled: false },
  };

  it("are simply not found (404) on every :id route, however long or odd", async () => {
    const problems: string[] = [];
    const idRoutes = routes.filter((r) => r.path.includes("{id}"));
    expect(idRoutes.length).toBeGreaterThanOrEqual(10);
    const ids = [
      "not-a-uuid",
      "1",
      `${randomUUID()}0`,
      randomUUID().toUpperCase().replace(/-/g, ""),
      "a".repeat(150),
      "a".repeat(300),
      "b".repeat(5_000),
      "%E2%80%8B",
      "..%2F..%2Fetc",
    ];
    for (const route of idRoutes) {
      const key = `${route.method} ${route.path}`;
      const body = VALID_BODY[key];
      for (const id of ids) {
        const res = await send(route, { url: urlOf(route, id), payload: body ? JSON.stringify(body) : undefined });
        if (res.statusCode !== 404 || res.json().code !== "NOT_FOUND") {
          problems.push(`${key} ${id.slice(0, 20)}(${id.length}): ${res.statusCode} ${res.body.slice(0, 120)}`);
        } else {
          expectErrorShape(res.body, res.statusCode);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe("what the HTTP layer answers itself", () => {
  let port = 0;
  beforeAll(async () => {
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    const address = t.app.server.address();
    port = typeof address === "object" && address ? address.port : 0;
  });

  /** Sends raw bytes and reads the whole answer (the server closes the connection after an error like these). */
  function raw(bytes: string): Promise<{ status: number; body: string; head: string }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1", () => socket.write(bytes));
      let out = "";
      socket.on("data", (d: Buffer) => {
        out += d.toString("utf8");
      });
      socket.on("error", reject);
      socket.on("close", () => {
        const end = out.indexOf("\r\n\r\n");
        resolve({ status: Number(out.slice(9, 12)), head: out.slice(0, end), body: out.slice(end + 4) });
      });
    });
  }
  const get = (path: string, extra = "") => raw(`GET ${path} HTTP/1.1\r\nHost: x\r\n${extra}Connection: close\r\n\r\n`);

  it("answers headers or an address too large with 431 in the {error, code} shape", async () => {
    for (const res of [
      await get(`/api/tickets/${"a".repeat(20_000)}`),
      await get("/api/health", `X-Filler: ${"a".repeat(20_000)}\r\n`),
    ]) {
      expect(res.status).toBe(431);
      expect(res.head).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(res.body)).toEqual({
        error: "The request's headers or address are too large.",
        code: "HEADERS_TOO_LARGE",
      });
    }
  });

  it("answers an address with a broken %-escape, and a request that is not HTTP, with 400 in the same shape", async () => {
    for (const path of ["/api/tickets/%zz", "/%E0%A4%A", "/api/auth/me?x=%"]) {
      const res = await get(path);
      expect([400, 401], `${path}: ${res.body}`).toContain(res.status);
      expectErrorShape(res.body, res.status);
    }
    const bad = await get("/api/tickets/%zz");
    expect(JSON.parse(bad.body)).toEqual(
      errorAnswer("The address is not valid: it has a broken %-escape.", "BAD_REQUEST"),
    );
    const garbage = await raw("HELLO THERE\r\n\r\n");
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.body)).toEqual({
      error: "The request is not valid HTTP.",
      code: "BAD_REQUEST",
    });
  });

  it("answers an unknown API path and method with 404 in the same shape", async () => {
    for (const res of [
      await get("/api/nope"),
      await raw("PATCH /api/tickets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
    ]) {
      expect(res.status).toBe(404);
      expectErrorShape(res.body, res.status);
    }
  });
});
