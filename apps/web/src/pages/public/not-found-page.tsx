import { Link } from "react-router";
import { buttonClasses } from "../../components/ui/button.tsx";

export function NotFoundPage() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-slate-50 px-4 text-center">
      <title>Page not found · Cove</title>
      <p className="text-sm font-semibold text-indigo-600">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900">Page not found</h1>
      <p className="mt-3 max-w-md text-slate-600">The page you are looking for does not exist or has moved.</p>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        <Link to="/" className={buttonClasses("secondary")}>
          Go home
        </Link>
        <Link to="/dashboard" className={buttonClasses("primary")}>
          Go to the dashboard
        </Link>
      </div>
    </main>
  );
}
