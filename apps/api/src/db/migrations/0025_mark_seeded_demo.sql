-- The demo organization is now found by organizations.is_demo (0017), which only the seed sets. A database seeded
-- before has its demo unmarked: mark it, recognizably. The seed writes into an empty database only, so the demo is the
-- first organization there is, with the demo's slug and its sign-in; an organization registered later under that name
-- is none of these.
UPDATE organizations o SET is_demo = true
WHERE o.slug = 'acme'
  AND o.created_at = (SELECT min(created_at) FROM organizations)
  AND EXISTS (SELECT 1 FROM users u WHERE u.organization_id = o.id AND u.email = 'demo@cove.example');
