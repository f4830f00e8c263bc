import { lazy, type ReactNode, Suspense } from "react";
import { AuthProvider } from "../features/auth/components/auth-provider.tsx";
import { TOASTS_BELOW } from "../lib/toasts-below.ts";

// Toasts only follow user actions, so the toaster can arrive a moment after the first paint (landing bundle budget).
const Toaster = lazy(async () => ({ default: (await import("sonner")).Toaster }));

/**
 * Toasts sit below the 64 px top bar (and the public pages' headers), never over it: 16 px under it on every screen,
 * centred on a desktop and across the width on a phone. Not on the right: every page keeps its actions at the top
 * right ("Edit", "View in help center"), and a toast there, paused while the pointer rests on it, hid them. Not at the
 * bottom: the reply boxes of tickets and live chat are there.
 *
 * On a phone a toast spans the width, so it would cover the row of actions a screen starts with (a ticket's "Back to
 * List" and "Reply", "New Ticket" under the Tickets heading): while such a row is in view it sits 16 px below it
 * (TOASTS_BELOW, kept by the rows through lib/toasts-below.ts), and back under the top bar once the row scrolls away.
 */
const TOAST_OFFSET = { top: 80 } as const;
const TOAST_MOBILE_OFFSET = { top: `max(80px, calc(var(${TOASTS_BELOW}, 0px) + 16px))`, left: 16, right: 16 } as const;

/** App-wide context. The query cache is per session: see lib/query-provider.tsx. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <AuthProvider>
      {children}
      <Suspense fallback={null}>
        <Toaster
          position="top-center"
          offset={TOAST_OFFSET}
          mobileOffset={TOAST_MOBILE_OFFSET}
          richColors
          closeButton
        />
      </Suspense>
    </AuthProvider>
  );
}
