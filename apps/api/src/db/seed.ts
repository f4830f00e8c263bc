import { DEMO_ORG_SLUG, TRIAL_DAYS, TRIAL_PLAN } from "@cove/contract/constants.ts";
import { count } from "drizzle-orm";
import { hashPassword } from "../modules/auth/index.ts";
import type { Db } from "../platform/db.ts";
import { organizations } from "./schema/organizations.ts";
import { users } from "./schema/users.ts";
import { seedDemoRules, seedDemoSla } from "./seed-automation.ts";
import { seedDemoChats } from "./seed-chat.ts";
import { seedDemoKb } from "./seed-kb.ts";
import { seedDemoTickets } from "./seed-tickets.ts";

export const DEMO_LOGIN = { email: "demo@cove.example", password: "cove-demo-2026" } as const;

const DEMO_TEAM = [
  { firstName: "Dana", lastName: "Whitfield", email: DEMO_LOGIN.email, role: "admin" },
  { firstName: "Marco", lastName: "Alvarez", email: "marco@cove.example", role: "agent" },
  { firstName: "Priya", lastName: "Nair", email: "priya@cove.example", role: "agent" },
] as const;

/** Seeds the demo organization into an empty database; a database that has any organization is left alone. */
export async function seedDemo(db: Db): Promise<boolean> {
  const [existing] = await db.select({ n: count() }).from(organizations);
  if ((existing?.n ?? 0) > 0) return false;
  const passwordHash = await hashPassword(DEMO_LOGIN.password);
  await db.transaction(async (tx) => {
    const [org] = await tx
      .insert(organizations)
      .values({
        name: "Acme Outdoor Co.",
        slug: DEMO_ORG_SLUG,
        // What the public demo pages find it by; no registration can set it.
        isDemo: true,
        plan: TRIAL_PLAN,
        subscriptionStatus: "trialing",
        trialEndsAt: new Date(Date.now() + TRIAL_DAYS * 86_400_000),
      })
      .returning({ id: organizations.id, slug: organizations.slug });
    if (!org) throw new Error("demo organization insert returned nothing");
    const team = await tx
      .insert(users)
      .values(
        DEMO_TEAM.map((member) => ({ ...member, organizationId: org.id, passwordHash, status: "active" as const })),
      )
      .returning({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email });
    const byEmail = new Map(
      team.map((u) => [u.email, { id: u.id, name: `${u.firstName} ${u.lastName}`, email: u.email }]),
    );
    const ordered = DEMO_TEAM.map((m) => byEmail.get(m.email)).filter((m) => m !== undefined);
    await seedDemoTickets(tx, org.id, ordered);
    await seedDemoKb(tx, org, ordered);
    await seedDemoChats(tx, org.id, ordered);
    await seedDemoRules(tx, org.id);
    await seedDemoSla(tx, org.id);
  });
  return true;
}
