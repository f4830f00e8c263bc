/**
 * zod compiles object parsers with `new Function` when it may, and finds out whether it may by trying once. Cove's
 * Content-Security-Policy has no 'unsafe-eval' (docs/engineering.md, "Security"), so that try is refused and the browser
 * reports the refusal in the console of every page, caught or not. With `jitless` zod neither tries nor compiles.
 *
 * This is `z.config({ jitless: true })`, done without importing zod: zod keeps its settings in one object on
 * globalThis (`__zod_globalConfig`, shared by every copy of zod on a page) and makes it only when it is absent.
 * Importing zod's `config` here would move zod's core (4 KB gzip) into the entry chunk, which the landing page loads
 * and which has no other use for zod. zod decides when a schema is made, so this runs first: main.tsx's first import.
 * zod-config.test.ts checks that zod reads the setting.
 */
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
zodGlobal.__zod_globalConfig = Object.assign(zodGlobal.__zod_globalConfig ?? {}, { jitless: true });

// A module of its own (imported for its effect above).
export {};
