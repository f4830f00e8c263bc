import { z } from "zod";

/** Every machine-readable error code the API can answer with, and its HTTP status. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  BAD_REQUEST: 400,
  INVALID_TOKEN: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  /** The organization requires two-factor sign-in of this member, who has not set it up: only enrolment answers. */
  TWO_FACTOR_ENROLMENT_REQUIRED: 403,
  NOT_FOUND: 404,
  /** The server has no demo organization (SEED_DEMO=false): the public demo pages say so. */
  DEMO_UNAVAILABLE: 404,
  /** An invitation link that was used, revoked or has expired: it will never work again. */
  INVITATION_EXPIRED: 410,
  INVITATION_USED: 410,
  EMAIL_TAKEN: 409,
  CONFLICT: 409,
  /** Over the plan's limit of team members. */
  SEAT_LIMIT: 403,
  /** Over the plan's tickets per month. */
  TICKET_LIMIT: 403,
  /** A feature the plan does not include (e.g. API access on Starter). */
  PLAN_FEATURE: 403,
  /** The trial ended unpaid, a renewal stayed unpaid, or the subscription ended: reads and export only. */
  READ_ONLY: 402,
  /** The card provider refused the card or the payment. */
  PAYMENT_FAILED: 402,
  /** The card provider could not be reached or answered an error of its own. */
  PAYMENT_PROVIDER_ERROR: 502,
  /** Node's HTTP parser refused the request: its headers (the address among them) are over the size limit. */
  HEADERS_TOO_LARGE: 431,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  /** An Idempotency-Key sent again with another request (method, path or body) than the one it was first used for. */
  IDEMPOTENCY_KEY_REUSED: 422,
  /** The first request with this Idempotency-Key has not answered yet. */
  IDEMPOTENCY_IN_PROGRESS: 409,
  /** A mailbox could not be reached or signed in to (wrong password, unknown host, TLS): the message says which. */
  MAILBOX_CONNECTION_FAILED: 422,
  /** A typed confirmation (erasing a customer: their email) that does not match what it must. */
  CONFIRMATION_MISMATCH: 422,
  INTERNAL_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** Every error the API answers: a message a person can act on, and one of the codes above (the OpenAPI lists them). */
export const errorSchema = z.object({
  error: z.string(),
  code: z.enum(ERROR_CODES),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** The request's id (its X-Request-Id): the line of the server's log that tells what happened to it. */
  requestId: z.string().optional(),
});

export type ErrorBody = z.infer<typeof errorSchema>;
