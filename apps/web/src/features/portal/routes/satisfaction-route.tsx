import { CSAT_RATINGS, type CsatRating, csatApi, type RateBody } from "@cove/contract/csat.ts";
import { portalPath } from "@cove/contract/portal.ts";
import { Link, useParams, useSearchParams } from "react-router";
import { FullPageSpinner } from "../../../components/ui/spinner.tsx";
import { callRoute } from "../../../lib/api-client.ts";
import { SessionQueryProvider } from "../../../lib/query-provider.tsx";
import { usePortalInfo, useSurvey } from "../api/portal-public.queries.ts";
import { PortalFrame } from "../components/portal-frame.tsx";
import { PortalUnavailable } from "../components/portal-unavailable.tsx";
import { SatisfactionForm } from "../components/satisfaction-form.tsx";

/** /portal/{org-slug}/satisfaction?token=: the survey of a solved ticket, from its email, without signing in. */
export function SatisfactionRoute() {
  return (
    <SessionQueryProvider>
      <Survey />
    </SessionQueryProvider>
  );
}

function Survey() {
  const { orgSlug = "" } = useParams();
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const preset = params.get("rating");
  const initialRating: CsatRating | null = CSAT_RATINGS.find((r) => r === preset) ?? null;
  const info = usePortalInfo(orgSlug);
  const survey = useSurvey(token);

  if (info.isPending || (survey.isPending && survey.fetchStatus !== "idle")) {
    return <FullPageSpinner label="Loading the survey" />;
  }
  if (info.isError) return <PortalUnavailable error={info.error} />;
  const link = (
    <Link to={portalPath(orgSlug)} className="text-sm font-medium text-[var(--portal-accent-text,#4f46e5)] underline">
      Go to the support portal
    </Link>
  );
  return (
    <PortalFrame organization={info.data}>
      <title>{`How did we do? · ${info.data.name}`}</title>
      <div className="mx-auto w-full max-w-xl space-y-4">
        {survey.isSuccess ? (
          <>
            <p className="text-sm text-slate-600">
              Your request <strong className="text-slate-900">#{survey.data.ticket.ticket_number}</strong>{" "}
              <span className="break-words">“{survey.data.ticket.subject}”</span> was solved.
            </p>
            <SatisfactionForm
              satisfaction={survey.data.satisfaction}
              initialRating={initialRating}
              onRate={(body: RateBody) =>
                callRoute(csatApi.rate, { body: { token, ...body }, anonymous: true }).then(() => survey.refetch())
              }
            />
          </>
        ) : (
          <div className="rounded-lg border border-slate-200 bg-white p-6 text-sm text-slate-700">
            <h1 className="text-lg font-semibold text-slate-900">This survey link does not work</h1>
            <p className="mt-2">
              {survey.error?.message === "Survey not found" || !survey.error
                ? "The link is incomplete, or a newer email replaced it. You can also rate a solved ticket in the support portal."
                : survey.error.message}
            </p>
          </div>
        )}
        {link}
      </div>
    </PortalFrame>
  );
}
