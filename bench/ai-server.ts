/**
 * The app under test for npm run bench:ai, in its own process so the client's timing does not share its event loop.
 * It opens a fresh database, creates one organization per CLINC150 domain (registered through the real endpoint)
 * with one published article per intent, starts listening on 127.0.0.1 and reports the port, the organizations'
 * tokens and article ids to the parent over IPC.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp } from "../apps/api/src/app.ts";
import { kbArticles } from "../apps/api/src/db/schema/kb.ts";
import { forgetOrganizationIndex } from "../apps/api/src/modules/ai/index-cache.ts";
import { wordVectors } from "../apps/api/src/modules/ai/word-vectors.ts";
import { lexicon } from "../apps/api/src/modules/ai/wordnet.ts";
import type { AiConfig } from "../apps/api/src/platform/config.ts";
import { openDatabase } from "../apps/api/src/platform/db.ts";
import { domainArticles, loadClinc } from "./ai-clinc.ts";

export interface AiServerPlan {
  database: { kind: "embedded" } | { kind: "postgres"; url: string };
  ai: AiConfig;
  /** Alternative phrasings per article (null: all of train). */
  phrasings: number | null;
  domains: string[];
}

export interface BenchOrganization {
  domain: string;
  token: string;
  /** intent -> article id */
  articles: Record<string, string>;
}

export type AiServerMessage =
  | { type: "ready"; port: number; organizations: BenchOrganization[] }
  | { type: "failed"; error: string }
  /** Answers "restart": every organization's index is forgotten, as a restart forgets them; the database stays. */
  | { type: "restarted" };

function send(message: AiServerMessage): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  const raw = process.env.BENCH_AI_SERVER;
  if (!raw) throw new Error("BENCH_AI_SERVER is not set: this process is started by bench/ai.bench.ts");
  const plan = JSON.parse(raw) as AiServerPlan;
  const dataDir = mkdtempSync(path.join(tmpdir(), "cove-bench-ai-"));
  const database = await openDatabase(
    plan.database.kind === "postgres"
      ? { kind: "postgres", url: plan.database.url }
      : { kind: "embedded", dir: path.join(dataDir, "db") },
  );
  wordVectors();
  lexicon();
  const app = await buildApp({
    database,
    mail: { smtpUrl: undefined, from: "Cove <no-reply@bench.cove.test>", outboxDir: path.join(dataDir, "outbox") },
    publicUrl: "http://127.0.0.1",
    ai: plan.ai,
    // One sign-up per domain from this one address: past the per-network limit for people signing up.
    registrationsPerHour: 1000,
  });
  await app.ready();

  const clinc = loadClinc();
  const organizations: BenchOrganization[] = [];
  const orgIds: string[] = [];
  const run = Date.now().toString(36);
  for (const domain of plan.domains) {
    const res = await app.inject({
      method: "POST",
      url: "/api/auth/register",
      payload: {
        organizationName: `CLINC ${domain}`,
        firstName: "Bench",
        lastName: "Admin",
        email: `bench-${domain.replaceAll("_", "-")}-${run}@bench.cove.test`,
        password: "benchmark-password",
      },
    });
    if (res.statusCode !== 201) throw new Error(`registering ${domain} failed: ${res.statusCode} ${res.body}`);
    const { token, user } = res.json() as { token: string; user: { organizationId: string } };
    orgIds.push(user.organizationId);
    const articles = domainArticles(clinc, domain, plan.phrasings ?? Number.POSITIVE_INFINITY);
    const rows = await database.db
      .insert(kbArticles)
      .values(
        articles.map((a) => ({
          organizationId: user.organizationId,
          title: a.title,
          slug: a.slug,
          body: a.body,
          questions: a.questions,
          status: "published" as const,
          publishedAt: new Date(),
        })),
      )
      .returning({ id: kbArticles.id, slug: kbArticles.slug });
    const bySlug = new Map(rows.map((r) => [r.slug, r.id]));
    organizations.push({
      domain,
      token,
      articles: Object.fromEntries(articles.map((a) => [a.intent, bySlug.get(a.slug) ?? ""])),
    });
  }

  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("the app is not listening on a TCP port");

  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on("message", (message) => {
    if (message === "stop") void close();
    if (message === "restart") {
      for (const id of orgIds) forgetOrganizationIndex(id);
      send({ type: "restarted" });
    }
  });
  process.on("disconnect", () => void close());
  send({ type: "ready", port: address.port, organizations });
}

main().catch((err: unknown) => {
  send({ type: "failed", error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
});
