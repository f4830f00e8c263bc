import { afterEach, describe, expect, it, vi } from "vitest";
import { FakeWebSocket } from "../test/fake-websocket.ts";
import { connectRealtime } from "./realtime.ts";

afterEach(() => vi.useRealTimers());

describe("the realtime connection", () => {
  it("signs in with its first frame, follows topics once ready, and hands events to listeners", () => {
    const conn = connectRealtime({ token: "tok", url: "ws://test/api/realtime" });
    const events: string[] = [];
    conn.onEvent((e, topic) => events.push(`${topic} ${e.type}`));
    const stop = conn.follow("tickets");
    conn.follow("tickets");
    const socket = FakeWebSocket.latest();
    expect(socket.url).toBe("ws://test/api/realtime");
    socket.accept();
    expect(socket.sent).toEqual([{ type: "auth", token: "tok" }]);
    expect(conn.status()).toBe("connecting");
    socket.receive({ type: "ready", actor: { kind: "staff", id: "u" } });
    expect(conn.status()).toBe("live");
    expect(socket.sent).toContainEqual({ type: "subscribe", topic: "tickets" });
    socket.receive({ type: "event", topic: "tickets", event: { id: 1, type: "ticket.created", data: {} } });
    expect(events).toEqual(["tickets ticket.created"]);
    stop();
    expect(socket.sent).not.toContainEqual({ type: "unsubscribe", topic: "tickets" });
    conn.close();
  });

  it("reconnects after a drop with a growing wait, follows its topics again and says it is back", async () => {
    vi.useFakeTimers();
    const onReconnected = vi.fn();
    const conn = connectRealtime({ token: "tok", url: "ws://test/api/realtime", onReconnected });
    conn.follow("ticket:abc");
    const first = FakeWebSocket.latest();
    first.accept();
    first.receive({ type: "ready", actor: { kind: "staff", id: "u" } });
    first.close(1006);
    expect(conn.status()).toBe("offline");
    expect(FakeWebSocket.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    const second = FakeWebSocket.latest();
    expect(second).not.toBe(first);
    second.accept();
    second.receive({ type: "ready", actor: { kind: "staff", id: "u" } });
    // Subscribed again, then a ping: the screens refetch once its pong says the subscriptions are in place.
    expect(second.sent.slice(1)).toEqual([{ type: "subscribe", topic: "ticket:abc" }, { type: "ping" }]);
    expect(onReconnected).not.toHaveBeenCalled();
    second.receive({ type: "pong" });
    expect(onReconnected).toHaveBeenCalledTimes(1);
    second.receive({ type: "pong" });
    expect(onReconnected).toHaveBeenCalledTimes(1);
    expect(conn.status()).toBe("live");
    conn.close();
  });

  it("comes back within a second when the server goes away (1001, a restart), and refetches", async () => {
    vi.useFakeTimers();
    const onReconnected = vi.fn();
    const conn = connectRealtime({ token: "tok", url: "ws://test/api/realtime", onReconnected });
    conn.follow("tickets");
    const first = FakeWebSocket.latest();
    first.accept();
    first.receive({ type: "ready", actor: { kind: "staff", id: "u" } });
    first.close(1001, "The server is restarting. Reconnect.");
    await vi.advanceTimersByTimeAsync(700);
    const second = FakeWebSocket.latest();
    expect(second).not.toBe(first);
    second.accept();
    second.receive({ type: "ready", actor: { kind: "staff", id: "u" } });
    second.receive({ type: "pong" });
    expect(onReconnected).toHaveBeenCalledTimes(1);
    conn.close();
  });

  it("reports an ended session and stops hammering the server", async () => {
    vi.useFakeTimers();
    const onSessionEnded = vi.fn();
    const conn = connectRealtime({ token: "tok", url: "ws://test/api/realtime", onSessionEnded });
    FakeWebSocket.latest().accept();
    FakeWebSocket.latest().close(4001, "Your session has ended.");
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    conn.close();
  });
});
