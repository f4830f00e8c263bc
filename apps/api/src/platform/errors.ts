import http from "node:http";
import type { Socket } from "node:net";
import { ERROR_STATUS, type ErrorBody, type ErrorCode } from "@cove/contract/errors.ts";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { REQUEST_ID_HEADER } from "./request-id.ts";

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorBody["details"];
  constructor(code: ErrorCode, message: string, details?: ErrorBody["details"]) {
    super(message);
    this.code = code;
    this.details = details;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (what: string) => new AppError("NOT_FOUND", `${what} not found`);

/** Fastify's own 4xx errors, turned into messages a person understands. */
const FASTIFY_ERRORS: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ["PAYLOAD_TOO_LARGE", "The request body is too large."],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    "UNSUPPORTED_MEDIA_TYPE",
    "Send the request body as JSON (Content-Type: application/json).",
  ],
  FST_ERR_CTP_EMPTY_JSON_BODY: ["BAD_REQUEST", "The request body is empty: send a JSON object."],
  FST_ERR_CTP_INVALID_JSON_BODY: ["BAD_REQUEST", "The request body is not valid JSON."],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ["BAD_REQUEST", "The Content-Length header does not match the body."],
};

function toBody(err: FastifyError): { status: number; body: ErrorBody } {
  if (err instanceof AppError) {
    return { status: err.status, body: { error: err.message, code: err.code, details: err.details } };
  }
  if (hasZodFastifySchemaValidationErrors(err)) {
    const details = err.validation.map((v) => ({
      path: v.instancePath.replace(/^\//, "").replaceAll("/", "."),
      message: v.message ?? "Invalid value",
    }));
    const first = details[0]?.message ?? "The request is not valid.";
    return { status: 400, body: { error: first, code: "VALIDATION_ERROR", details } };
  }
  const known = err.code ? FASTIFY_ERRORS[err.code] : undefined;
  if (known) return { status: ERROR_STATUS[known[0]], body: { error: known[1], code: known[0] } };
  if (err instanceof SyntaxError || err.code === "FST_ERR_CTP_INVALID_JSON_BODY") {
    return { status: 400, body: { error: "The request body is not valid JSON.", code: "BAD_REQUEST" } };
  }
  if (err.statusCode === 429) {
    return { status: 429, body: { error: err.message || "Too many requests. Try again later.", code: "RATE_LIMITED" } };
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500 && !isResponseSerializationError(err)) {
    return { status: err.statusCode, body: { error: err.message, code: "BAD_REQUEST" } };
  }
  return {
    status: 500,
    body: { error: "Something went wrong on our side. Please try again.", code: "INTERNAL_ERROR" },
  };
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const { status, body } = toBody(err);
    if (status >= 500) req.log.error({ err }, "request failed");
    // The request's id, also in its log lines and X-Request-Id: a screenshot of the error finds what happened.
    return reply.status(status).send({ ...body, requestId: req.id });
  });
}

const bodyOf = (code: ErrorCode, error: string): ErrorBody => ({ error, code });

/**
 * Errors Fastify's router raises before any route runs (Fastify's frameworkErrors), in the API's error shape:
 * an address with a broken %-escape is a bad request; a path segment past the router's length limit is an id or slug
 * of nothing, so it is not found, as any malformed id is (platform/ids.ts).
 */
export function frameworkError(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const [status, body]: [number, ErrorBody] =
    err.code === "FST_ERR_MAX_PARAM_LENGTH"
      ? [404, bodyOf("NOT_FOUND", "Not found: nothing has an address like this one.")]
      : err.code === "FST_ERR_BAD_URL"
        ? [400, bodyOf("BAD_REQUEST", "The address is not valid: it has a broken %-escape.")]
        : [400, bodyOf("BAD_REQUEST", "The request could not be routed.")];
  // No hook has run for such a request: its id goes on the answer here.
  void reply
    .code(status)
    .header(REQUEST_ID_HEADER, req.id)
    .send({ ...body, requestId: req.id });
}

/**
 * What Node's HTTP parser refuses before Fastify sees a request (Fastify's clientErrorHandler): headers or an address
 * over the size limit, a request that is not HTTP, one that took too long to arrive. Answered in the same
 * {error, code} shape, on the raw socket, which is then closed.
 */
export function clientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const [status, body] =
    err.code === "HPE_HEADER_OVERFLOW"
      ? [431, bodyOf("HEADERS_TOO_LARGE", "The request's headers or address are too large.")]
      : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, bodyOf("REQUEST_TIMEOUT", "The request took too long to arrive. Please try again.")]
        : [400, bodyOf("BAD_REQUEST", "The request is not valid HTTP.")];
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy();
}
