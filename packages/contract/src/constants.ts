export const ROLES = ["agent", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const USER_STATUSES = ["active", "inactive", "invited"] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const PLAN_IDS = ["starter", "growth", "business"] as const;
export type PlanId = (typeof PLAN_IDS)[number];

/** null means unlimited. */
export interface PlanDefinition {
  id: PlanId;
  name: string;
  price: number;
  maxAgents: number | null;
  ticketsPerMonth: number | null;
  features: string[];
}

export const PLANS: Record<PlanId, PlanDefinition> = {
  starter: {
    id: "starter",
    name: "Starter",
    price: 29,
    maxAgents: 3,
    ticketsPerMonth: 1000,
    features: ["Up to 3 agents", "1,000 tickets/month", "Email support", "Basic reporting"],
  },
  growth: {
    id: "growth",
    name: "Growth",
    price: 59,
    maxAgents: 10,
    ticketsPerMonth: 5000,
    features: ["Up to 10 agents", "5,000 tickets/month", "Chat support", "Advanced reporting", "API access"],
  },
  business: {
    id: "business",
    name: "Business",
    price: 99,
    maxAgents: null,
    ticketsPerMonth: null,
    features: ["Unlimited agents", "Unlimited tickets", "Priority support", "Custom integrations", "White-label"],
  },
};

export const TRIAL_DAYS = 14;
/**
 * The slug of the organization a fresh install seeds, whose articles the public AI demo (/ai-test) answers from. The
 * demo is found by its is_demo flag, which only the seed sets, never by this slug: a registration may take "acme" when
 * no demo was seeded.
 */
export const DEMO_ORG_SLUG = "acme";
/** What the demo entry points say when the server has no demo organization (docs/product.md, "The demo organization"). */
export const DEMO_UNAVAILABLE =
  "The demo is not available on this server: it was started without the demo organization (SEED_DEMO=false).";
/** A trial runs with the limits of this plan. */
export const TRIAL_PLAN: PlanId = "growth";

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Session lifetimes (docs/product.md: Remember me). */
export const SESSION_HOURS = 12;
export const REMEMBER_ME_DAYS = 30;
export const RESET_TOKEN_MINUTES = 60;
/** An invitation link works once, for this many days. */
export const INVITATION_DAYS = 7;

/** Profile pictures: stored as a data URL of a small image the browser has already scaled down. */
export const AVATAR_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export const AVATAR_MAX_BYTES = 100 * 1024;
export const AVATAR_SIZE_PX = 128;

/** Sign-in throttling (docs/engineering.md, "Security"): per account and per address, however the guesses arrive. */
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MINUTES = 15;

/** Two-factor sign-in (TOTP): who an organization requires it of, and the numbers of its sign-in step. */
export const TWO_FACTOR_POLICIES = ["off", "admins", "everyone"] as const;
export type TwoFactorPolicy = (typeof TWO_FACTOR_POLICIES)[number];
export const TWO_FACTOR_CHALLENGE_MINUTES = 5;
export const RECOVERY_CODE_COUNT = 10;

/** Registrations per address and hour, unless REGISTRATIONS_PER_HOUR says otherwise. */
export const REGISTRATIONS_PER_HOUR = 5;

export const TRIAL_STATUS_REFETCH_MS = 60_000;

/** Requests one API key may make per minute, by the organization's plan (Starter has no API access). */
export const API_REQUESTS_PER_MINUTE: Record<PlanId, number> = { starter: 0, growth: 300, business: 1000 };
/** How long a POST's answer is kept for a repeat with the same Idempotency-Key. */
export const IDEMPOTENCY_HOURS = 24;
export const IDEMPOTENCY_KEY_MAX = 255;
