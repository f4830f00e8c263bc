import { clsx } from "clsx";
import { Clock } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Link } from "react-router";
import { buttonClasses } from "../../../components/ui/button.tsx";
import { useAuth } from "../../../lib/auth.ts";
import { useTrialStatus } from "../api/trial.queries.ts";
import { type TrialBannerTone, trialBannerState } from "./trial-banner-state.ts";

// The card form loads when an admin asks to upgrade, not with every dashboard.
const UpgradeDialog = lazy(async () => ({ default: (await import("./upgrade-dialog.tsx")).UpgradeDialog }));

const toneClasses: Record<TrialBannerTone, string> = {
  red: "border-red-200 bg-red-50 text-red-800",
  orange: "border-orange-200 bg-orange-50 text-orange-800",
  yellow: "border-yellow-200 bg-yellow-50 text-yellow-800",
  blue: "border-blue-200 bg-blue-50 text-blue-800",
};

export const ASK_AN_ADMIN = "Ask an admin to upgrade your plan.";

/**
 * The trial banner (docs/product.md, "States"), and the account's state after the trial: read-only, a failed payment, a canceled
 * subscription. Admins upgrade from it; agents, who cannot pay, are told to ask an admin.
 */
export function TrialBanner() {
  const { data } = useTrialStatus();
  const { user } = useAuth();
  const [upgrading, setUpgrading] = useState(false);
  // While loading or when the status cannot be read there is nothing trustworthy to say, so no banner.
  const state = data ? trialBannerState(data) : null;
  if (!state) return null;
  const isAdmin = user?.role === "admin";
  // The banner's colour says how urgent it is; its action is the app's primary button, as everywhere else.
  const button = buttonClasses("primary", "md", "shrink-0");

  return (
    <section
      aria-label="Trial status"
      data-tone={state.tone}
      className={clsx(
        "flex flex-col gap-3 rounded-lg border p-4 sm:flex-row sm:items-center sm:justify-between",
        toneClasses[state.tone],
      )}
    >
      <div className="flex items-start gap-3">
        <Clock className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
        <div>
          <p className="font-semibold">{state.message}</p>
          <p className="text-sm opacity-90">{state.detail}</p>
        </div>
      </div>
      {state.upgrade &&
        (!isAdmin ? (
          <p className="shrink-0 text-sm font-medium">{ASK_AN_ADMIN}</p>
        ) : state.upgrade === "convert" ? (
          <>
            <button type="button" className={button} onClick={() => setUpgrading(true)}>
              Upgrade now
            </button>
            {upgrading && (
              <Suspense fallback={null}>
                <UpgradeDialog open={upgrading} onOpenChange={setUpgrading} />
              </Suspense>
            )}
          </>
        ) : (
          <Link to="/billing" className={button}>
            Go to Billing
          </Link>
        ))}
    </section>
  );
}
