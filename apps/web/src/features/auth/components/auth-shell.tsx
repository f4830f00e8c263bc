import type { ReactNode } from "react";
import { Link } from "react-router";
import { Logo } from "../../../components/ui/logo.tsx";

interface AuthShellProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/** The centred card shared by sign-in, registration and password reset. */
export function AuthShell({ title, subtitle, children, footer }: AuthShellProps) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-slate-50 px-4 py-10">
      <title>{`${title} · Cove`}</title>
      {/* In the banner landmark, so that everything on the page sits in a landmark. */}
      <header className="mb-6">
        <Link to="/" className="block rounded-md" aria-label="Cove home">
          <Logo />
        </Link>
      </header>
      <main className="w-full max-w-md">
        <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
          {subtitle && <div className="mt-1 text-sm text-slate-600">{subtitle}</div>}
          <div className="mt-6">{children}</div>
        </div>
        {footer && <div className="mt-6 text-center text-sm text-slate-600">{footer}</div>}
      </main>
    </div>
  );
}
