-- The billing state every write checks (modules/billing/access.ts readBillingState), readable by any request role of
-- the organization, the contact role included (a ticket from the portal counts toward the plan's monthly tickets and
-- is refused while the organization is read-only), without granting the contact role the organization's billing
-- columns or the subscription row (card and address). SECURITY DEFINER; it answers only for the organization the
-- transaction is confined to (or for any, to the owner role before any organization is confined).
CREATE OR REPLACE FUNCTION organization_billing_state(org uuid)
RETURNS TABLE (plan text, status text, "trialEndsAt" timestamptz, "pastDueSince" timestamptz, "endedAt" timestamptz,
               timezone text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$
  SELECT o.plan, o.subscription_status, o.trial_ends_at, s.past_due_since, s.ended_at, o.timezone
  FROM organizations o LEFT JOIN subscriptions s ON s.organization_id = o.id
  WHERE o.id = org
    AND (nullif(current_setting('app.org_id', true), '') IS NULL
         OR o.id = nullif(current_setting('app.org_id', true), '')::uuid)
$$;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION organization_billing_state(uuid) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION organization_billing_state(uuid) TO cove_app, cove_contact;
