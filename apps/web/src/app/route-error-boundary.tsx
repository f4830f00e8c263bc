import { useEffect } from "react";
import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { Button, buttonClasses } from "../components/ui/button.tsx";
import { logBoundaryError } from "../lib/debug-log.ts";
import { NotFoundPage } from "../pages/public/not-found-page.tsx";

/** Shown in place of a route that crashed (or whose code failed to download), keeping the rest of the app usable. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  // The /debug page lists what the boundaries caught.
  useEffect(() => logBoundaryError(error, window.location.pathname), [error]);
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  if (import.meta.env.DEV) console.error(error);

  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center px-4 py-16 text-center">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Something went wrong</h1>
      <p className="mt-3 text-slate-600">
        This page could not be shown. Try again; if it keeps happening, reload the app or come back in a moment.
      </p>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        {/* A full reload also picks up a new version of the app when an old code chunk is gone. */}
        <Button onClick={() => window.location.reload()}>Try again</Button>
        <Link to="/" className={buttonClasses("secondary")}>
          Go home
        </Link>
      </div>
    </div>
  );
}
