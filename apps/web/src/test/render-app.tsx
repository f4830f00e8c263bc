import type { SessionUser } from "@cove/contract/auth.ts";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { vi } from "vitest";
import { AppProviders } from "../app/providers.tsx";
import { routes } from "../app/router.tsx";
import { setSession } from "../lib/session-storage.ts";
import { trialAnswer } from "./trial-fixtures.ts";

export { trialAnswer };

export const testUser: SessionUser = {
  id: "8a3c5f5e-8d0e-4a57-9d43-1f6b2f0c9a11",
  email: "ada@example.com",
  firstName: "Ada",
  lastName: "Lovelace",
  role: "admin",
  organizationName: "Analytical Engines",
  organizationId: "0b7f3a0e-5c1d-4e8f-9a2b-3c4d5e6f7a8b",
  organizationSlug: "analytical-engines",
  avatarUrl: null,
  twoFactorEnabled: false,
  twoFactorRequired: false,
};

/** What a previous visit left in the browser: a signed-in session. */
export function storeSession(user: SessionUser = testUser, token = "stored-token") {
  setSession({ token, user });
}

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

type Handler = (init: RequestInit | undefined) => Response | Promise<Response>;

/**
 * Replaces fetch (the HTTP boundary) with canned answers keyed by "METHOD /api/path". A call nobody expected answers
 * 404 so the test shows it rather than hanging.
 */
export function mockApi(handlers: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const path = new URL(url, "http://localhost").pathname;
    const handler = handlers[`${init?.method ?? "GET"} ${path}`];
    if (!handler) return json(404, { error: `No mock for ${init?.method ?? "GET"} ${path}`, code: "NOT_FOUND" });
    return handler(init);
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

/** The calls made so far, as "METHOD /api/path". */
export function calls(fetchMock: ReturnType<typeof mockApi>): string[] {
  return fetchMock.mock.calls.map(([input, init]) => `${init?.method ?? "GET"} ${String(input)}`);
}

/** Renders the whole app (real routes, providers and auth gate) at `path`. */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  // No pause between keystrokes: the forms do not debounce, and long forms would otherwise crawl.
  const user = userEvent.setup({ delay: null });
  const view = render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, user, ...view };
}

/**
 * A signed-in visit: stores `user`'s session, answers who is signed in and the trial's status, and mocks `handlers`
 * beside them (a handler for either of those two replaces it).
 */
export function signedIn(handlers: Record<string, Handler> = {}, user: SessionUser = testUser) {
  storeSession(user);
  return mockApi({
    "GET /api/auth/me": () => json(200, { user }),
    "GET /api/trial/status": () => json(200, trialAnswer),
    ...handlers,
  });
}

/**
 * A modal dialog once it has finished opening: Radix first turns off pointer events on the page, then turns them back
 * on for the dialog a render later. A click in between (a busy machine's timing, never a person's) would land on
 * nothing, so this waits for the dialog to take clicks, as a person sees it.
 */
export async function findOpenDialog(role: "dialog" | "alertdialog", options?: { name?: string | RegExp }) {
  const dialog = await screen.findByRole(role, options);
  await waitFor(() => {
    if (document.body.style.pointerEvents === "none" && dialog.style.pointerEvents !== "auto") {
      throw new Error("The dialog does not take clicks yet");
    }
  });
  return dialog;
}

/** A table's column headers, as the reader sees them. */
export function columnHeaders(table: HTMLElement): (string | null)[] {
  return within(table)
    .getAllByRole("columnheader")
    .map((h) => h.textContent);
}
