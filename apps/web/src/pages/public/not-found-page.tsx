import { Link } from "react-router";
import { buttonClasses } from "../../components/ui/button.tsx";
import { Logo } from "../../components/ui/logo.tsx";
import { useAuth } from "../../lib/auth.ts";
import { PageMeta } from "./site/page-meta.tsx";

/**
 * Any unknown path. Deliberately light (no public header and footer): the route error boundary shows it too, so it
 * sits in the app's entry chunk.
 */
export function NotFoundPage() {
  const { status } = useAuth();
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <PageMeta
        title="Page not found · Cove"
        description="This page does not exist on Cove. Go back to the home page or to your dashboard."
      />
      <header className="mx-auto w-full max-w-6xl px-4 py-5 sm:px-6 lg:px-8">
        <Link to="/" aria-label="Cove home" className="inline-flex rounded-md">
          <Logo />
        </Link>
      </header>
      <main className="flex flex-1 flex-col items-center justify-center px-4 pb-24 text-center">
        <p className="text-sm font-semibold text-indigo-600">404</p>
        <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Page not found</h1>
        <p className="mt-3 max-w-md text-base text-slate-600">
          The page you are looking for does not exist or has moved. Check the address, or start again from one of these.
        </p>
        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <Link to="/" className={buttonClasses("secondary")}>
            Go home
          </Link>
          <Link to="/dashboard" className={buttonClasses("primary")}>
            Go to the dashboard
          </Link>
        </div>
        {status !== "authenticated" && (
          <p className="mt-4 text-sm text-slate-600">You will be asked to sign in before the dashboard opens.</p>
        )}
      </main>
    </div>
  );
}
