import { ERROR_STATUS, type ErrorBody, type ErrorCode } from "@cove/contract/errors.ts";
import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";

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
    if (status >= 500) req.log.error({ err, reqId: req.id }, "request failed");
    return reply.status(status).send(body);
  });
}
