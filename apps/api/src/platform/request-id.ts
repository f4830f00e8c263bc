import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance } from "fastify";

/** The header a load balancer sets (HAProxy's unique-id-header, nginx's $request_id) and Cove answers with. */
export const REQUEST_ID_HEADER = "x-request-id";

/**
 * What an incoming id may look like to be kept: up to 128 characters that cannot break a log line or a header (letters,
 * digits and . _ : - + = / @). Anything else (empty, too long, spaces, quotes, control characters) is replaced.
 */
const SANE_ID = /^[A-Za-z0-9._:+=/@-]{1,128}$/;

/**
 * A request's id (Fastify's genReqId): the one the load balancer or the client sent in X-Request-Id when it is sane,
 * else a new UUID. Fastify puts it in every log line of the request (reqId, through the request's child logger).
 */
export function requestIdOf(req: IncomingMessage): string {
  const sent = req.headers[REQUEST_ID_HEADER];
  const value = Array.isArray(sent) ? sent[0] : sent;
  return value !== undefined && SANE_ID.test(value) ? value : randomUUID();
}

/** Every answer says which request it answers: X-Request-Id, the same id its log lines and error body carry. */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook("onRequest", async (req, reply) => {
    reply.header(REQUEST_ID_HEADER, req.id);
  });
}
