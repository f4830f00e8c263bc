-- How many times the provider's state has been applied to the organization's billing records
-- (docs/decisions/2026-11-25-lock-order-and-sharded-versions.md, "Billing syncs apply in the order they read"). A sync
-- reads it before asking the provider and applies its answer, under lockForBilling, only if it has not moved since:
-- otherwise another sync applied an answer in between, and this one reads the provider again.
ALTER TABLE "subscriptions" ADD COLUMN "sync_generation" integer DEFAULT 0 NOT NULL;
