import { describe, expect, it } from "vitest";

describe("zod's configuration", () => {
  it("is jitless once the entry's first import ran, so zod never tries new Function under the CSP", async () => {
    await import("./zod-config.ts");
    const { z } = await import("zod");
    expect(z.config().jitless).toBe(true);
    // Parsing still works, on zod's interpreted path.
    expect(z.object({ name: z.string() }).parse({ name: "Cove" })).toEqual({ name: "Cove" });
    expect(z.core.util.allowsEval.value).toBe(false);
  });
});
