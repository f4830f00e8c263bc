import { CANCELED_DELETE_DAYS } from "@cove/contract/billing.ts";
import type { FastifyBaseLogger } from "fastify";
import { now } from "../../platform/clock.ts";
import type { Db } from "../../platform/db.ts";
import type { JobQueue, Jobs } from "../../platform/jobs.ts";
import { canceledBefore } from "./billing.sync.ts";
import type { TestProvider } from "./test.provider.ts";

const DAY = 86_400_000;

export interface LifecycleDeps {
  db: Db;
  /** The test provider renews its subscriptions here; a real provider renews on its side and sends webhooks. */
  test: TestProvider | null;
  /** Erases an organization and everything it owns. */
  eraseOrganization: (db: Db, orgId: string) => Promise<void>;
  /** Drops finished data exports made before a time. */
  purgeExports: (db: Db, before: Date) => Promise<number>;
  log?: FastifyBaseLogger;
}

export const LIFECYCLE_QUEUE: JobQueue<object> = {
  name: "billing-lifecycle",
  retryLimit: 2,
  retryDelaySeconds: 60,
  retryBackoff: false,
  expireInSeconds: 15 * 60,
};
/** Every 10 minutes: renewals happen within minutes of a period's end, deletions within minutes of day 90. */
export const LIFECYCLE_CRON = "*/10 * * * *";
export const EXPORT_KEEP_DAYS = 7;

/**
 * The scheduled part of billing (docs/product.md, "Plans and the trial"): test-provider renewals, and the canceled-data lifecycle's last
 * step, deleting an organization 90 days after its subscription ended. The read-only steps need no job: they follow
 * from the dates whenever anyone asks (access.ts). All of it runs at the billing clock's time.
 */
export async function runLifecycle(deps: LifecycleDeps): Promise<{ renewed: number; deleted: number; purged: number }> {
  const at = now();
  const renewed = deps.test ? await deps.test.renewDue() : 0;
  const doomed = await canceledBefore(deps.db, new Date(at.getTime() - CANCELED_DELETE_DAYS * DAY));
  for (const orgId of doomed) {
    await deps.eraseOrganization(deps.db, orgId);
    deps.log?.info({ orgId }, "canceled organization deleted after the retention period");
  }
  const purged = await deps.purgeExports(deps.db, new Date(at.getTime() - EXPORT_KEEP_DAYS * DAY));
  return { renewed, deleted: doomed.length, purged };
}

export function scheduleLifecycle(jobs: Jobs, deps: LifecycleDeps): void {
  jobs.work(LIFECYCLE_QUEUE, async () => {
    await runLifecycle(deps);
  });
  jobs.schedule(LIFECYCLE_QUEUE, LIFECYCLE_CRON);
}
