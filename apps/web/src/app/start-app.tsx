import { StrictMode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { RouterProvider } from "react-router";
import { AppProviders } from "./providers.tsx";
import { createAppRouter } from "./router.tsx";

/** Mounts the whole app (router, session, toasts) in `container`. */
export function startApp(container: HTMLElement): void {
  renderApp(createRoot(container), createAppRouter());
}

/**
 * Takes over from a public page that was shown without the router (see pages/public/site/standalone.tsx): the router
 * first finishes the visitor's navigation to `to`, so the public page stays on screen until the next one is ready
 * instead of flashing a spinner, and the public page's address stays in the history for the back button.
 */
export async function takeOver(root: Root, to: string): Promise<void> {
  const router = createAppRouter();
  await router.navigate(to);
  renderApp(root, router);
}

function renderApp(root: Root, router: ReturnType<typeof createAppRouter>) {
  root.render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}
