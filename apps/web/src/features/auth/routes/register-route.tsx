import { PLAN_IDS, PLANS, type PlanId, TRIAL_DAYS } from "@cove/contract/constants.ts";
import { Link, useSearchParams } from "react-router";
import { AuthShell } from "../components/auth-shell.tsx";
import { RegisterForm } from "../components/register-form.tsx";

function isPlanId(value: string | null): value is PlanId {
  return PLAN_IDS.some((id) => id === value);
}

export function RegisterRoute() {
  const [searchParams] = useSearchParams();
  const plan = searchParams.get("plan");
  const chosen = isPlanId(plan) ? PLANS[plan] : null;

  return (
    <AuthShell
      title="Start your free trial"
      subtitle={`${TRIAL_DAYS} days free, no credit card needed.`}
      footer={
        <>
          Already have an account?{" "}
          <Link to="/login" className="font-medium text-indigo-600 hover:text-indigo-500">
            Sign in
          </Link>
        </>
      }
    >
      {chosen && (
        // Every plan starts with the same trial; the choice is only remembered for when they subscribe.
        <p className="mb-5 rounded-md border border-indigo-100 bg-indigo-50 px-3 py-2 text-sm text-indigo-800">
          You picked the <strong>{chosen.name}</strong> plan (${chosen.price}/month). Your free trial is the same for
          every plan; you choose when you subscribe.
        </p>
      )}
      <RegisterForm />
    </AuthShell>
  );
}
