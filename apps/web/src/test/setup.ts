import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterAll, afterEach, beforeEach, vi } from "vitest";
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

// A toast being dismissed when its test ends removes itself 200 ms later (sonner's exit animation), a timer unmounting
// does not clear. Let it run while the file's window still exists, or React meets a torn-down window ("window is not
// defined") and the run reports an unhandled error.
afterAll(() => new Promise((resolve) => setTimeout(resolve, 250)));
