import { ruleActorId } from "@cove/contract/automation.ts";
import { ASSISTANT_ACTOR } from "@cove/contract/events.ts";
import { describe, expect, it } from "vitest";
import { systemActorName } from "../../src/modules/tickets/index.ts";

describe("systemActorName", () => {
  it("names the system actors as the app does elsewhere", () => {
    expect(systemActorName("automation")).toBe("Automation");
    expect(systemActorName(ASSISTANT_ACTOR.id)).toBe("AI Assistant");
    expect(systemActorName(ruleActorId("0b9c8a52-3f43-4c55-9d2e-5b1c2f7a9e10", "Escalate urgent"))).toBe(
      "Escalate urgent",
    );
    expect(systemActorName("something-else")).toBe("Cove");
  });
});
