import { useAuth } from "../../auth/hooks/use-auth.ts";
import { TrialBanner } from "../../trial/components/trial-banner.tsx";

export function DashboardRoute() {
  const { user } = useAuth();
  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Dashboard</h1>
        <p className="mt-1 text-sm text-slate-600">
          Welcome back{user ? `, ${user.firstName}` : ""}. Here is what is happening at{" "}
          {user?.organizationName ?? "your help desk"}.
        </p>
      </header>
      <TrialBanner />
    </div>
  );
}
