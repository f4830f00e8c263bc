import { isDeepStrictEqual } from "node:util";
import fastJson from "fast-json-stringify";
import type { FastifySerializerCompiler } from "fastify";
import { serializerCompiler as zodSerializerCompiler } from "fastify-type-provider-zod";
import { type ZodType, z } from "zod";

type Serialize = (data: unknown) => string;

/**
 * Fastify's serializer compiler: each answer is written by a serializer compiled from its zod schema's JSON Schema
 * (fast-json-stringify), which writes the schema's fields and nothing else, as the zod schema's encode did before.
 * Encoding with zod and then JSON.stringify cost about a sixth of a list page's CPU in the app: zod checks every
 * field of every ticket, its uuids by regular expression (docs/benchmarks.md, issue 34).
 *
 * A schema JSON Schema cannot express (a Date) keeps zod's encode. With `checked` (every environment but
 * production, so every test) each answer is also written through zod's encode and the two must say the same (the
 * same JSON values; the order of an object's keys may differ): the compiled serializer checks neither types nor
 * refinements, so the tests hold it to what zod would have written, on every answer they get.
 *
 * Compiled on first use, once per schema: an app has some 600 answer schemas and a test starts many apps.
 */
export function answerSerializer(opts: { checked: boolean }): FastifySerializerCompiler<unknown> {
  const compiled = new WeakMap<object, Serialize | null>();
  return (route) => {
    const viaZod: Serialize = zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]);
    const schema = route.schema;
    if (!(schema instanceof z.ZodType)) return viaZod;
    let own: Serialize | null | undefined;
    const fast = (data: unknown) => {
      if (own === undefined) {
        own = compiled.get(schema);
        if (own === undefined) {
          own = compile(schema);
          compiled.set(schema, own);
        }
      }
      if (own === null) return viaZod(data);
      if (!opts.checked) return own(data);
      const expected = viaZod(data);
      const written = own(data);
      if (!isDeepStrictEqual(JSON.parse(written), JSON.parse(expected))) {
        throw new Error(
          `${route.method} ${route.url} ${route.httpStatus ?? ""}: the compiled serializer wrote ${written}, zod ${expected}`,
        );
      }
      return written;
    };
    return fast;
  };
}

/** A schema's compiled serializer, or null when its JSON Schema cannot say what zod's encode does. */
function compile(schema: ZodType): Serialize | null {
  try {
    const json = z.toJSONSchema(schema, { io: "output", target: "draft-07", unrepresentable: "throw" });
    return fastJson(nullable(json) as Parameters<typeof fastJson>[0]) as Serialize;
  } catch {
    return null;
  }
}

/**
 * zod writes "X or null" as anyOf [X, null], which fast-json-stringify settles per value by validating X (a uuid's
 * pattern, say) with ajv; X with `nullable` says the same and is settled by a null check.
 */
function nullable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullable);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = nullable(value);
  const anyOf = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const isNull = (branch: unknown) =>
      typeof branch === "object" &&
      branch !== null &&
      Object.keys(branch).length === 1 &&
      (branch as { type?: unknown }).type === "null";
    const at = anyOf.findIndex(isNull);
    const other = anyOf[1 - at];
    if (at !== -1 && typeof other === "object" && other !== null && !("anyOf" in other) && !("$ref" in other)) {
      const { anyOf: _, ...rest } = out;
      return { ...rest, ...other, nullable: true };
    }
  }
  return out;
}
