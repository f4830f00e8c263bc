import { helpCenterApi, kbApi } from "@cove/contract/kb.ts";
import { describe, expect, it } from "vitest";
import { errorStatuses } from "../../src/platform/routes.ts";

/** A table route's error answers are derived from its entry (docs/decisions/2026-11-30-route-table.md). */
describe("errorStatuses", () => {
  it("derives a signed-in route's answers from its input, writes and own codes", () => {
    expect(errorStatuses(kbApi.listCategories)).toEqual([401, 403, 404]);
    expect(errorStatuses(kbApi.getArticle)).toEqual([400, 401, 403, 404]);
    expect(errorStatuses(kbApi.createCategory)).toEqual([400, 401, 402, 403, 404, 409]);
    expect(errorStatuses(kbApi.createCategory, { allowedWhenReadOnly: true })).toEqual([400, 401, 403, 404, 409]);
    expect(errorStatuses(kbApi.attachFile, { rateLimit: { max: 1, timeWindow: "1 minute" } })).toEqual([
      400, 401, 402, 403, 404, 413, 415, 429,
    ]);
  });

  it("gives a public route no session answers, and a rate limit's 429 only when it has one", () => {
    expect(errorStatuses(helpCenterApi.center)).toEqual([400, 404]);
    expect(errorStatuses(helpCenterApi.search, { rateLimit: { max: 1, timeWindow: "1 minute" } })).toEqual([
      400, 404, 429,
    ]);
  });
});
