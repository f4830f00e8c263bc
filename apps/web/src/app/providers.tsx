import { lazy, type ReactNode, Suspense } from "react";
import { AuthProvider } from "../features/auth/components/auth-provider.tsx";

// Toasts only follow user actions, so the toaster can arrive a moment after the first paint (landing bundle budget).
const Toaster = lazy(async () => ({ default: (await import("sonner")).Toaster }));

/** App-wide context. The query cache is per session: see query-provider.tsx. */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <AuthProvider>
      {children}
      <Suspense fallback={null}>
        <Toaster position="top-right" richColors closeButton />
      </Suspense>
    </AuthProvider>
  );
}
