import { Store } from "lucide-react";
import { Link } from "react-router";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button, buttonClasses } from "../../../components/ui/button.tsx";
import { ApiError } from "../../../lib/api-client.ts";

/** A portal address that leads nowhere (404), or a portal that could not be loaded. */
export function PortalUnavailable({
  error,
  retry,
  what = "support portal",
}: {
  error: Error;
  retry?: () => void;
  what?: string;
}) {
  const missing = error instanceof ApiError && error.status === 404;
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <div className="w-full max-w-md space-y-4 text-center">
        <title>{missing ? `No such ${what}` : `The ${what} could not be loaded`}</title>
        <Store className="mx-auto size-10 text-slate-400" aria-hidden="true" />
        {missing ? (
          <>
            <h1 className="text-xl font-semibold text-slate-900">There is no {what} here</h1>
            <p className="text-sm text-slate-600">{error.message}. Check the link you were given.</p>
          </>
        ) : (
          <Alert>
            <p className="font-semibold">The {what} could not be loaded</p>
            <p>{error.message}</p>
          </Alert>
        )}
        <div className="flex justify-center gap-3">
          {retry && !missing && (
            <Button variant="secondary" onClick={retry}>
              Try again
            </Button>
          )}
          <Link to="/" className={buttonClasses("ghost")}>
            Go to the home page
          </Link>
        </div>
      </div>
    </div>
  );
}
