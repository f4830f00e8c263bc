import { describe, expect, it } from "vitest";
import { standalonePage } from "./standalone-pages.ts";

describe("standalonePage", () => {
  it("starts the marketing pages without the router", async () => {
    for (const path of ["/", "/homepage", "/about", "/terms", "/privacy", "/demo", "/about/"]) {
      expect(standalonePage(path), path).toBeTypeOf("function");
    }
    const Landing = await standalonePage("/")?.();
    expect(Landing?.name).toBe("LandingPage");
  });

  it("leaves every other path to the app", () => {
    for (const path of ["/login", "/register", "/dashboard", "/debug", "/chat-layout", "/nope", "/toString"]) {
      expect(standalonePage(path), path).toBeUndefined();
    }
  });
});
