import { Link } from "react-router";
import { buttonClasses } from "../../components/ui/button.tsx";
import { Logo } from "../../components/ui/logo.tsx";

export function HomePage() {
  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-b from-indigo-50 to-slate-50">
      <title>Cove · The help desk for small teams</title>
      <header className="mx-auto flex w-full max-w-5xl items-center justify-between px-4 py-5 sm:px-6">
        <Logo />
        <Link to="/login" className={buttonClasses("ghost", "sm")}>
          Sign in
        </Link>
      </header>
      <main className="mx-auto flex w-full max-w-3xl flex-1 flex-col items-center justify-center px-4 py-16 text-center sm:px-6">
        <h1 className="text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">Cove</h1>
        <p className="mt-4 max-w-xl text-lg text-slate-600">
          The help desk for small teams: tickets, live chat and an AI assistant that answers from your own knowledge
          base.
        </p>
        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <Link to="/register" className={buttonClasses("primary", "md", "px-6")}>
            Start free trial
          </Link>
          <Link to="/login" className={buttonClasses("secondary", "md", "px-6")}>
            Sign in
          </Link>
        </div>
      </main>
    </div>
  );
}
