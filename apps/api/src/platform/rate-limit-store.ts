import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { type Db, type ExecuteSql, preparedRows } from "./db.ts";
import type { JobQueue, Jobs } from "./jobs.ts";

/**
 * The counters of the routes' request limits (`config.rateLimit`) on PostgreSQL, shared by every instance behind the
 * load balancer (docs/decisions/2026-12-01-shared-rate-limits.md): with the plugin's default store each instance
 * counted alone, so three instances let a client make three times the requests.
 *
 * One statement per counted request: an upsert that starts a new window when the row's has ended, else adds one, and
 * answers the count and the time left. Two requests racing on one key are serialized by the row's lock, so neither
 * reads a count the other is about to change. It runs on the outer handle (the owner role, no organization confined):
 * the table holds no organization's data, only route + client key.
 */

interface Counted {
  count: number;
  ttl: number;
}

type Incr = FastifyRateLimitStore["incr"];

/** What the plugin passes to child(): the route's merged limit options, with the route itself as routeInfo. */
interface ChildOptions {
  routeInfo?: { method?: string | string[]; url?: string };
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
}

/**
 * The store's class for the plugin's `store` option (the plugin calls `new` on it, hence a class). `scope` prefixes
 * every key: one deployment's instances share it (empty); tests that share one database give each app its own.
 */
export function sharedRateLimitStore(db: Db, log: FastifyBaseLogger, scope = ""): FastifyRateLimitStoreCtor {
  const count =
    (prefix: string): Incr =>
    (key, callback, timeWindow) => {
      preparedRows<Counted>(
        db,
        sql`insert into rate_limit_counters as c (key, count, window_end)
            values (${`${prefix}${key}`}, 1, now() + make_interval(secs => ${timeWindow / 1000}))
            on conflict (key) do update
              set count = case when c.window_end > now() then least(c.count, 2147483646) + 1 else 1 end,
                  window_end = case when c.window_end > now() then c.window_end else excluded.window_end end
            returning count, greatest(0, ceil(extract(epoch from (window_end - now())) * 1000))::float8 as ttl`,
      ).then(
        ([row]) =>
          row ? callback(null, { current: row.count, ttl: row.ttl }) : callback(new Error("rate limit upsert: no row")),
        (err: Error) => {
          // The plugin then lets the request through (skipOnError, app.ts): say so, once per request.
          log.warn({ err, key: prefix }, "rate limit not counted: the shared counter could not be written");
          callback(err);
        },
      );
    };

  return class SharedRateLimitStore implements FastifyRateLimitStore {
    incr: Incr;

    constructor(_options: FastifyRateLimitOptions, prefix = scope) {
      this.incr = count(prefix);
    }

    /** One store per limited route: its key names the route, so two routes' limits never add up. */
    child(options: Parameters<FastifyRateLimitStore["child"]>[0]): FastifyRateLimitStore {
      const { routeInfo, continueExceeding, exponentialBackoff } = options as unknown as ChildOptions;
      if (continueExceeding || exponentialBackoff) {
        throw new Error(
          "The shared rate-limit store counts fixed windows: continueExceeding and exponentialBackoff are not supported.",
        );
      }
      if (!routeInfo?.url)
        throw new Error("The shared rate-limit store keys counters by route: a limit needs its route.");
      const method = [routeInfo.method ?? ""].flat().join(",");
      return new SharedRateLimitStore({}, `${scope}${method} ${routeInfo.url} `);
    }
  };
}

const PURGE_QUEUE: JobQueue<object> = {
  name: "rate-limit-purge",
  retryLimit: 3,
  retryDelaySeconds: 60,
  retryBackoff: true,
  expireInSeconds: 5 * 60,
};

/** Deletes the counters whose window has ended (a request would start them again from 1); answers how many. */
export async function purgeRateLimitCounters(executeSql: ExecuteSql): Promise<number> {
  const { rowCount } = await executeSql("DELETE FROM rate_limit_counters WHERE window_end < now()");
  return rowCount;
}

/** Purges ended counters every 15 minutes (pg-boss runs the schedule once across instances). */
export function scheduleRateLimitPurge(jobs: Jobs, executeSql: ExecuteSql): void {
  jobs.work(PURGE_QUEUE, async () => {
    await purgeRateLimitCounters(executeSql);
  });
  jobs.schedule(PURGE_QUEUE, "*/15 * * * *");
}
