import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";
import { FakeWebSocket } from "./fake-websocket.ts";

// Route modules load lazily (dynamic import); the first load of a module in a test run can take a while to transform.
configure({ asyncUtilTimeout: 5000 });

beforeEach(() => {
  FakeWebSocket.instances = [];
  vi.stubGlobal("WebSocket", FakeWebSocket);
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});
