import { type PortalOrganization, portalApi, signInLinkBody } from "@cove/contract/portal.ts";
import { MailCheck } from "lucide-react";
import { useState } from "react";
import { Alert } from "../../../components/ui/alert.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { EmailField } from "../../../components/ui/text-field.tsx";
import { callRoute, errorText } from "../../../lib/api-client.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { accentButton } from "./portal-brand.ts";

/**
 * Signing in to a portal: the customer's email, and a link in their inbox. The answer is the same whether or not the
 * organization knows the email (someone who never wrote in can sign in and open a ticket).
 */
export function SignInCard({ organization, problem }: { organization: PortalOrganization; problem?: string }) {
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    field,
    handleSubmit,
    formState: { isSubmitting },
  } = useContractForm(signInLinkBody, { email: "" });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await callRoute(portalApi.signInLink, {
        params: { orgSlug: organization.slug },
        body: values,
        anonymous: true,
      });
      setSent(answer.message);
    } catch (error) {
      setFailure(errorText(error, "The sign-in link could not be sent. Please try again."));
    }
  });

  return (
    <section
      aria-labelledby="portal-sign-in-title"
      className="mx-auto w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
    >
      <h1 id="portal-sign-in-title" className="text-xl font-semibold text-slate-900">
        Sign in to {organization.name} support
      </h1>
      <p className="mt-2 text-sm text-slate-600">
        See your tickets, follow the team's answers, and ask for help. No password: we email you a link.
      </p>
      {problem && !sent && (
        <div className="mt-4">
          <Alert>{problem}</Alert>
        </div>
      )}
      {sent ? (
        <div className="mt-6 space-y-4">
          <div
            role="status"
            className="flex gap-3 rounded-md border border-emerald-200 bg-emerald-50 p-4 text-sm text-emerald-900"
          >
            <MailCheck className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
            <p>{sent}</p>
          </div>
          <button type="button" className="text-sm font-medium text-slate-600 underline" onClick={() => setSent(null)}>
            Use another email
          </button>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="mt-6 space-y-4" aria-label="Sign in with your email">
          <EmailField label="Email address" {...field("email")} />
          {failure && <Alert>{failure}</Alert>}
          <button type="submit" className={`${accentButton} w-full`} disabled={isSubmitting}>
            {isSubmitting && <Spinner className="size-4" />}
            Email me a sign-in link
          </button>
        </form>
      )}
    </section>
  );
}
