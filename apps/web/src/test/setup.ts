import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterAll, afterEach, beforeEach, vi } from "vitest";
import { FakeWebSocket } from "./fake-websocket.ts";

// Route modules load lazily (dynamic import); the first load of a module in a test run can take a while to transform,
// and CI runs the API and web suites side by side on 2 cores: a first screen has been seen to take just over 5 s.
configure({ asyncUtilTimeout: 10_000 });

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
