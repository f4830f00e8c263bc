import { randomUUID } from "node:crypto";
import type { MeAnswer } from "@cove/contract/auth.ts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanText, wellFormed } from "../../src/platform/json-body.ts";
import { client, createTestApp, newAddress, registerOrg, type TestApp } from "../helpers.ts";

/**
 * A lone UTF-16 surrogate (JSON's "\ud800" escape, half of an emoji) in any string a request carries is made U+FFFD at
 * the edge: no route answers 500 because PostgreSQL's JSONB (or anything else downstream) refuses it.
 */

const HIGH = "\ud83d"; // the first half of 😀
const LOW = "\ude00"; // its second half
const REPLACED = "\ufffd";

let t: TestApp;
let app: FastifyInstance;
const call = client(() => app);
beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
});
afterAll(async () => {
  await t.close();
});

describe("the edge's text check", () => {
  it("replaces lone surrogates in strings and keys, keeps pairs, refuses NUL", () => {
    expect(wellFormed(`a${HIGH}b${LOW}c${HIGH}${LOW}d${LOW}${HIGH}`)).toBe(
      `a${REPLACED}b${REPLACED}c😀d${REPLACED}${REPLACED}`,
    );
    const body = { [`k${HIGH}`]: [`v${LOW}`, { deep: [HIGH] }], ok: "😀", n: 3 };
    expect(cleanText(body)).toEqual({
      value: { [`k${REPLACED}`]: [`v${REPLACED}`, { deep: [REPLACED] }], ok: "😀", n: 3 },
      nul: false,
    });
    expect(cleanText(HIGH)).toEqual({ value: REPLACED, nul: false });
    expect(cleanText({ a: [`x\u0000`] }).nul).toBe(true);
  });
});

describe("lone surrogates reaching the API", () => {
  it("a profile's names are stored with U+FFFD, never 500", async () => {
    const { token } = await registerOrg(app);
    const res = await call(token, "PUT", "/api/auth/profile", { firstName: `Ada${HIGH}`, lastName: `${LOW}Byron` });
    expect(res.statusCode, res.body).toBe(200);
    const me = (await call(token, "GET", "/api/auth/me")).json() as MeAnswer;
    expect([me.user.firstName, me.user.lastName]).toEqual([`Ada${REPLACED}`, `${REPLACED}Byron`]);
  });

  it("a ticket's subject, requester, description and tags, and a reply, never 500", async () => {
    const { token } = await registerOrg(app);
    const created = await call(token, "POST", "/api/tickets", {
      subject: `Broken ${HIGH}`,
      description: `It broke ${LOW} again`,
      requester_name: `Grace ${HIGH}`,
      requester_email: "grace@example.com",
      tags: [`tag${HIGH}`],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { ticket } = created.json() as { ticket: { id: string; subject: string } };
    expect(ticket.subject).toBe(`Broken ${REPLACED}`);
    const tagged = await call(token, "PUT", `/api/tickets/${ticket.id}`, { tags: [`urgent${LOW}`, `x${HIGH}y`] });
    expect(tagged.statusCode, tagged.body).toBe(200);
    expect((tagged.json() as { ticket: { tags: string[] } }).ticket.tags.sort()).toEqual(
      [`urgent${REPLACED}`, `x${REPLACED}y`].sort(),
    );
    const reply = await call(token, "POST", `/api/tickets/${ticket.id}/comments`, { body: `Fixed ${HIGH}` });
    expect(reply.statusCode, reply.body).toBeLessThan(300);
    const search = await call(token, "GET", `/api/tickets?search=${encodeURIComponent("Broken")}%ED%A0%BD`);
    expect(search.statusCode, search.body).toBeLessThan(500);
  });

  it("the test card's name and address, never 500", async () => {
    const { token } = await registerOrg(app);
    const res = await call(token, "POST", "/api/test-provider/payment-methods", {
      number: "4242 4242 4242 4242",
      exp_month: 12,
      exp_year: new Date().getUTCFullYear() + 3,
      cvc: "123",
      name: `Ada ${HIGH}`,
      address: { line1: `12 Row ${LOW}`, city: `London${HIGH}`, postal_code: "N1 7AA", country: "GB" },
    });
    expect(res.statusCode, res.body).toBe(200);
    const subscribed = await call(token, "POST", "/api/billing/subscribe", {
      plan: "starter",
      paymentMethodId: (res.json() as { id: string }).id,
    });
    expect(subscribed.statusCode, subscribed.body).toBe(200);
  });

  it("every write route, given a body with a lone surrogate in every string, answers 4xx or 2xx, never 5xx", async () => {
    const doc = app.swagger() as unknown as { paths: Record<string, Record<string, Operation>> };
    let session = await registerOrg(app);
    const { ticket } = (
      await call(session.token, "POST", "/api/tickets", {
        subject: "Sweep",
        description: "d",
        requester_name: "R",
        requester_email: "r@example.com",
      })
    ).json() as { ticket: { id: string } };
    const failures: string[] = [];
    let tried = 0;
    for (const [pattern, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!["post", "put", "patch", "delete"].includes(method)) continue;
        // Signing out would end the session the next routes use; deleting the organization is the last thing to try.
        if (/sign-out|logout/.test(pattern)) continue;
        const url = pattern.replace(/\{(\w+)\}/g, (_m, name: string) =>
          name === "id" && pattern.startsWith("/api/tickets/") ? ticket.id : name === "slug" ? "acme" : randomUUID(),
        );
        const schema = operation.requestBody?.content?.["application/json"]?.schema;
        for (const body of schema ? bodies(schema) : [undefined]) {
          const res = await app.inject({
            method: method.toUpperCase() as "POST",
            url: `${url}?q=%ED%A0%BD`,
            headers: { authorization: `Bearer ${session.token}` },
            remoteAddress: newAddress(),
            ...(body === undefined ? {} : { payload: body as object }),
          });
          tried++;
          if (res.statusCode >= 500) failures.push(`${method.toUpperCase()} ${pattern}: ${res.statusCode} ${res.body}`);
          const me = await call(session.token, "GET", "/api/auth/me");
          if (me.statusCode !== 200) session = await registerOrg(app);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(tried).toBeGreaterThan(150);
  });
});

interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  minLength?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}
interface Operation {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

/**
 * Bodies for one route: every field at once, then the required fields with one optional field each (so that one
 * field's refusal, a wrong current password, does not hide what another would have stored).
 */
function bodies(schema: Schema): unknown[] {
  const all = sample(schema);
  if (!schema.properties || !all || typeof all !== "object") return [all];
  const full = all as Record<string, unknown>;
  const required = new Set(schema.required ?? []);
  const base = Object.fromEntries(Object.entries(full).filter(([k]) => required.has(k)));
  const optional = Object.keys(full).filter((k) => !required.has(k));
  return [full, ...optional.map((k) => ({ ...base, [k]: full[k] }))];
}

/** A body shaped like schema whose every free string carries lone surrogates (valid, once they are U+FFFD). */
function sample(schema: Schema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return sample(choices.find((c) => c.type !== "null") ?? choices[0] ?? {});
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => sample(s) as object));
  const type = [schema.type ?? "object"].flat().find((x) => x !== "null");
  switch (type) {
    case "string":
      if (schema.format === "uuid") return randomUUID();
      if (schema.format === "email") return `a${HIGH}@example.com`;
      if (schema.format === "uri") return `https://example.com/${LOW}`;
      if (schema.format === "date-time") return new Date().toISOString();
      return `Text ${HIGH} and ${LOW}`.padEnd(schema.minLength ?? 0, "x");
    case "integer":
    case "number":
      return schema.minimum ?? 1;
    case "boolean":
      return true;
    case "array":
      return [sample(schema.items ?? { type: "string" })];
    default:
      return Object.fromEntries(
        Object.entries(schema.properties ?? { [`key${HIGH}`]: { type: "string" } }).map(([k, s]) => [k, sample(s)]),
      );
  }
}
