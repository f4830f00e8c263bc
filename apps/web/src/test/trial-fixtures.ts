/** An organization's access with nothing held back: not read-only, no grace period, nothing to be deleted. */
export const fullAccess = {
  read_only: false,
  reason: null,
  message: null,
  grace_ends_at: null,
  read_only_from: null,
  deletes_at: null,
};

/** GET /api/trial/status for an organization ten days into its Growth trial, with full access. */
export const trialAnswer = {
  isTrial: true,
  daysRemaining: 10,
  isExpired: false,
  trialEndsAt: "2030-01-15T00:00:00.000Z",
  plan: "growth",
  subscription_status: "trialing",
  access: fullAccess,
};
