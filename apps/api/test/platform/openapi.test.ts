import { randomUUID } from "node:crypto";
import SwaggerParser from "@apidevtools/swagger-parser";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, bearer, createTestApp, registerOrg, type TestApp } from "../helpers.ts";

/**
 * The OpenAPI document (/api/docs/json) is one a program can rely on (issue 33, item 2): it is valid OpenAPI (a real
 * validator), it says for every operation who may call it and which error codes it answers, and what it says is
 * true: each kind of caller is refused exactly where the document says so, and every answer seen here has a
 * documented status and the documented shape.
 */
interface Operation {
  security?: Record<string, string[]>[];
  "x-cove-access"?: string[];
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>> };

let t: TestApp;
let doc: Doc;
beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json() as Doc;
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);

/** OpenAPI 3.0 writes exclusive bounds as draft 4 did (a flag beside minimum); Ajv reads today's JSON Schema. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = toJsonSchema(value);
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof out[flag] !== "boolean") continue;
    if (out[flag] === true) out[flag] = out[bound];
    else delete out[flag];
    if (out[flag] !== undefined) delete out[bound];
  }
  return out;
}

/** Fails unless the answer's status is documented for the operation and its JSON body has the documented shape. */
function expectDocumented(op: Operation, label: string, res: LightMyRequestResponse) {
  const documented = op.responses[String(res.statusCode)];
  expect(
    documented,
    `${label} answered ${res.statusCode}, which the document does not list: ${res.body}`,
  ).toBeDefined();
  const schema = documented?.content?.["application/json"]?.schema;
  if (!schema || !String(res.headers["content-type"]).startsWith("application/json")) return;
  const validate = ajv.compile(toJsonSchema(schema) as object);
  const body = res.json();
  expect(validate(body), `${label} ${res.statusCode}: ${ajv.errorsText(validate.errors)} in ${res.body}`).toBe(true);
}

const urlOf = (path: string) => path.replace(/\{[^}]+\}/g, () => randomUUID());

describe("the OpenAPI document", () => {
  it("is valid OpenAPI", async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it("says for every operation who may call it and which error codes it answers", () => {
    const ops = operations().filter((o) => o.path.startsWith("/api/"));
    expect(ops.length).toBeGreaterThan(100);
    for (const { path, method, op } of ops) {
      const label = `${method} ${path}`;
      const access = op["x-cove-access"] ?? [];
      expect(access.length, label).toBeGreaterThan(0);
      expect(Array.isArray(op.security), label).toBe(true);
      expect((op.security ?? []).length === 0, label).toBe(access.includes("public"));
      for (const status of ["400", "500", ...(access.includes("public") ? [] : ["401", "403"])]) {
        const schema = op.responses[status]?.content?.["application/json"]?.schema as
          | { properties?: { code?: { enum?: string[] } } }
          | undefined;
        expect(schema?.properties?.code?.enum?.length, `${label} ${status}`).toBeGreaterThan(0);
      }
    }
    const create = doc.paths["/api/tickets"]?.post;
    expect(create?.["x-cove-access"]).toEqual(["member", "admin", "api_key:read_write"]);
    expect(create?.responses["429"]).toBeDefined();
    expect(create?.responses["422"]).toBeDefined();
    expect(doc.paths["/api/tickets"]?.get?.["x-cove-access"]).toContain("api_key:read");
    expect(doc.paths["/api/users/invite"]?.post?.["x-cove-access"]).toEqual(["admin"]);
    expect(doc.paths["/api/auth/login"]?.post?.["x-cove-access"]).toEqual(["public"]);
  });
});

describe("what the document says is true", () => {
  it("refuses each kind of caller exactly where it says, with documented answers", async () => {
    const org = await registerOrg(t.app);
    const keyRes = await t.app.inject({
      method: "POST",
      url: "/api/settings/api-keys",
      headers: bearer(org.token),
      payload: { name: "Checker", scope: "read_write" },
    });
    const apiKey = keyRes.json().token as string;
    const ops = operations().filter(
      (o) => o.path.startsWith("/api/") && !(o.op["x-cove-access"] ?? []).includes("public"),
    );
    for (const { path, method, op } of ops) {
      const access = op["x-cove-access"] ?? [];
      const send = (token: string | null) =>
        t.app.inject({
          method: method as "GET",
          url: urlOf(path),
          headers: token ? bearer(token) : {},
        });
      const label = `${method} ${path}`;
      const anonymous = await send(null);
      expect(anonymous.statusCode, label).toBe(401);
      expectDocumented(op, label, anonymous);
      // A fresh agent for each operation: one of them is signing out.
      const agent = await addMember(t.database, org.user.organizationId, { role: "agent" });
      const asAgent = await send(agent.token);
      if (access.includes("member")) expect(asAgent.statusCode, `${label} as an agent`).not.toBe(403);
      else expect(asAgent.statusCode, `${label} as an agent`).toBe(403);
      expectDocumented(op, `${label} as an agent`, asAgent);
      const asKey = await send(apiKey);
      const keyAllowed = access.some((a) => a.startsWith("api_key"));
      if (keyAllowed) expect([401, 403], `${label} with an API key`).not.toContain(asKey.statusCode);
      else expect(asKey.statusCode, `${label} with an API key`).toBe(403);
      expectDocumented(op, `${label} with an API key`, asKey);
    }
  });

  it("answers every read without an id in the documented shape", async () => {
    const org = await registerOrg(t.app);
    const reads = operations().filter(
      (o) => o.method === "GET" && o.path.startsWith("/api/") && !o.path.includes("{") && !o.path.includes(".csv"),
    );
    for (const { path, op } of reads) {
      const res = await t.app.inject({ method: "GET", url: path, headers: bearer(org.token) });
      expectDocumented(op, `GET ${path}`, res);
    }
  });
});
