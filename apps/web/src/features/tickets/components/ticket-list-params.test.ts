import { describe, expect, it } from "vitest";
import { readListParams, withFilters, writeListParams } from "./ticket-list-params.ts";

describe("ticket list address", () => {
  it("reads the filters and page a link carries", () => {
    const id = "8a3c5f5e-8d0e-4a57-9d43-1f6b2f0c9a11";
    expect(
      readListParams(new URLSearchParams(`status=open&priority=urgent&assignee_id=${id}&search=%20refund%20&page=2`)),
    ).toEqual({ page: 2, status: "open", priority: "urgent", assignee_id: id, search: "refund" });
  });

  it("leaves out what the API would refuse, so an old or edited link still opens", () => {
    expect(readListParams(new URLSearchParams("status=archived&priority=5&assignee_id=bob&page=-1&search="))).toEqual({
      page: 1,
      status: undefined,
      priority: undefined,
      assignee_id: undefined,
      search: undefined,
    });
    expect(readListParams(new URLSearchParams("page=2.5")).page).toBe(1);
    expect(readListParams(new URLSearchParams("sort=soonest")).sort).toBeUndefined();
    expect(readListParams(new URLSearchParams("sort=sla_due")).sort).toBe("sla_due");
  });

  it("writes a short, stable address and resets the page when a filter changes", () => {
    const params = { page: 4, status: "pending" as const, assignee_id: "unassigned" };
    expect(writeListParams(params).toString()).toBe("status=pending&assignee_id=unassigned&page=4");
    expect(writeListParams(withFilters(params, { status: undefined })).toString()).toBe("assignee_id=unassigned");
  });
});
