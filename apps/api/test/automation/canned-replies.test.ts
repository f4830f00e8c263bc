import type { CannedReply } from "@cove/contract/canned-replies.ts";
import { describe, expect, it } from "vitest";
import { addMember, client, naughtyStrings, registerOrg, testAppForFile } from "../helpers.ts";

const t = testAppForFile();

const call = client(() => t.app);

describe("canned replies", () => {
  it("are kept by admins, read by the whole team, in title order", async () => {
    const org = await registerOrg(t.app);
    const agent = await addMember(t.database, org.user.organizationId);
    const created = await call(org.token, "POST", "/api/canned-replies", {
      title: " Shipping times ",
      body: "Hi {{ticket.requester_name}}, parcels take 3 to 5 days.",
    });
    expect(created.statusCode, created.body).toBe(201);
    const shipping = created.json().canned_reply as CannedReply;
    expect(shipping).toMatchObject({
      title: "Shipping times",
      body: "Hi {{ticket.requester_name}}, parcels take 3 to 5 days.",
    });
    await call(org.token, "POST", "/api/canned-replies", { title: "Refunds", body: "Refunds take a week." });
    const listed = (await call(agent.token, "GET", "/api/canned-replies")).json().canned_replies as CannedReply[];
    expect(listed.map((c) => c.title)).toEqual(["Refunds", "Shipping times"]);

    const edited = await call(org.token, "PUT", `/api/canned-replies/${shipping.id}`, {
      title: "Delivery times",
      body: "Two days.",
    });
    expect(edited.json().canned_reply).toMatchObject({ id: shipping.id, title: "Delivery times", body: "Two days." });
    expect((await call(agent.token, "POST", "/api/canned-replies", { title: "x", body: "y" })).statusCode).toBe(403);
    expect((await call(agent.token, "DELETE", `/api/canned-replies/${shipping.id}`)).statusCode).toBe(403);
    expect((await call(org.token, "DELETE", `/api/canned-replies/${shipping.id}`)).statusCode).toBe(200);
    const left = (await call(agent.token, "GET", "/api/canned-replies")).json().canned_replies as CannedReply[];
    expect(left.map((c) => c.title)).toEqual(["Refunds"]);
  });

  it("say what is missing, and another organization's are not found", async () => {
    const org = await registerOrg(t.app);
    const other = await registerOrg(t.app);
    for (const [payload, message] of [
      [{ title: " ", body: "x" }, "Title is required"],
      [{ title: "x", body: "" }, "Reply is required"],
      [{ title: "x" }, "Reply is required"],
    ] as const) {
      const res = await call(org.token, "POST", "/api/canned-replies", payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(message);
    }
    const mine = (await call(org.token, "POST", "/api/canned-replies", { title: "Mine", body: "Mine" })).json()
      .canned_reply as CannedReply;
    expect((await call(other.token, "GET", "/api/canned-replies")).json().canned_replies).toEqual([]);
    const put = await call(other.token, "PUT", `/api/canned-replies/${mine.id}`, { title: "Theirs", body: "Theirs" });
    expect(put.statusCode).toBe(404);
    expect(put.json().error).toBe("Canned reply not found");
    expect((await call(other.token, "DELETE", `/api/canned-replies/${mine.id}`)).statusCode).toBe(404);
  });

  it("take every naughty string as title and reply, or answer a clear 400", { timeout: 180_000 }, async () => {
    const org = await registerOrg(t.app);
    for (const s of naughtyStrings()) {
      const res = await call(org.token, "POST", "/api/canned-replies", { title: s.slice(0, 120), body: s });
      expect(res.statusCode, JSON.stringify(s)).toBeLessThan(500);
      if (res.statusCode === 201) {
        expect(res.json().canned_reply.body, JSON.stringify(s)).toBe(s.trim());
        await call(org.token, "DELETE", `/api/canned-replies/${res.json().canned_reply.id}`);
      } else {
        expect(s.trim() === "" || s.includes("\u0000"), JSON.stringify(s)).toBe(true);
      }
    }
  });
});
