import { randomUUID } from "node:crypto";
import type { AiResponseAnswer } from "@cove/contract/ai.ts";
import { DEMO_ORG_SLUG } from "@cove/contract/constants.ts";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { sessions } from "../../src/db/schema/auth.ts";
import { kbArticles } from "../../src/db/schema/kb.ts";
import { organizations } from "../../src/db/schema/organizations.ts";
import { users } from "../../src/db/schema/users.ts";
import type { KbArticle } from "../../src/modules/ai/retrieval.ts";
import { hashToken, newToken } from "../../src/platform/auth.ts";
import { bearer, type TestApp, unique } from "../helpers.ts";

export { SHOP_ARTICLES, SHOP_RENTALS } from "./shop-articles.ts";

/** Inserts an article straight into kb_articles (the knowledge-base API is another module's), published by default. */
export async function addArticle(
  t: TestApp,
  orgId: string,
  article: Partial<Omit<KbArticle, "id">> & { status?: "draft" | "published" } = {},
) {
  const suffix = unique();
  const [row] = await t.database.db
    .insert(kbArticles)
    .values({
      organizationId: orgId,
      title: article.title ?? `Article ${suffix}`,
      slug: article.slug ? `${article.slug}-${suffix}` : `article-${suffix}`,
      body: article.body ?? "Nothing to see here.",
      questions: article.questions ?? [],
      status: article.status ?? "published",
      publishedAt: article.status === "draft" ? null : new Date(),
    })
    .returning({ id: kbArticles.id, slug: kbArticles.slug, title: kbArticles.title });
  if (!row) throw new Error("article insert returned nothing");
  return row;
}

/** An agent (not an admin) of the organization, with a live session token. */
export async function agentSession(t: TestApp, orgId: string): Promise<{ token: string; userId: string }> {
  const [agent] = await t.database.db
    .insert(users)
    .values({
      organizationId: orgId,
      email: `agent-${unique()}@example.com`,
      firstName: "Marco",
      lastName: "Alvarez",
      role: "agent",
    })
    .returning({ id: users.id });
  if (!agent) throw new Error("agent insert returned nothing");
  const token = newToken();
  await t.database.db.insert(sessions).values({
    organizationId: orgId,
    userId: agent.id,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return { token, userId: agent.id };
}

/**
 * The demo organization the public assistant answers from (the one flagged is_demo, as the seed makes it), created
 * when the database has none (tests seed nothing). Test files sharing a PostgreSQL database may ask at once, and a
 * registration may hold the slug "acme": the flag's unique index settles who creates it.
 */
export async function demoOrganization(t: TestApp): Promise<string> {
  const find = async () =>
    (await t.database.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.isDemo, true)))[0]
      ?.id;
  for (const slug of [DEMO_ORG_SLUG, `acme-demo-${unique()}`]) {
    const found = await find();
    if (found) return found;
    await t.database.db
      .insert(organizations)
      .values({
        id: randomUUID(),
        name: "Acme Outdoor Co.",
        slug,
        plan: "growth",
        subscriptionStatus: "trialing",
        isDemo: true,
      })
      .onConflictDoNothing();
  }
  const found = await find();
  if (!found) throw new Error("demo organization missing");
  return found;
}

/** The organization's assistant answers a question asked with this token (200, or the test fails). */
export async function askAssistant(t: TestApp, token: string, message: string): Promise<AiResponseAnswer> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/chat/ai-response",
    headers: bearer(token),
    payload: { message },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AiResponseAnswer;
}
