import { clsx } from "clsx";
import { ChevronRight, CreditCard } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { Alert } from "../../../components/ui/alert.tsx";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { AuditLogPanel } from "../../audit/index.ts";
import { MailboxImport, UnfiledMail } from "../../email/index.ts";
import { useSecuritySettings } from "../api/security.api.ts";
import { useEmailSettings, useGeneralSettings } from "../api/settings.api.ts";
import { ApiKeysPanel } from "../components/api-keys-panel.tsx";
import { DataPanel } from "../components/data-panel.tsx";
import { EmailForm } from "../components/email-form.tsx";
import { GeneralForm } from "../components/general-form.tsx";
import { InboundPanel } from "../components/inbound-panel.tsx";
import { SecurityForm } from "../components/security-form.tsx";
import { WebhooksPanel } from "../components/webhooks-panel.tsx";

const TABS = [
  { id: "general", label: "General" },
  { id: "email", label: "Email Settings" },
  { id: "integrations", label: "Integrations" },
  { id: "security", label: "Security" },
  { id: "audit", label: "Audit log" },
] as const;
type Tab = (typeof TABS)[number]["id"];

const tabClasses = (active: boolean) =>
  clsx(
    "-mb-px block border-b-2 px-1 pb-3 text-sm font-medium whitespace-nowrap",
    active ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-800",
  );

function Loading() {
  return (
    <p className="flex items-center gap-2 text-sm text-slate-600" role="status">
      <Spinner /> Loading settings...
    </p>
  );
}

function GeneralTab() {
  const general = useGeneralSettings();
  if (general.isPending) return <Loading />;
  if (general.isError) return <Alert>Failed to load settings</Alert>;
  return (
    <div className="space-y-5">
      <GeneralForm key={`${general.data.slug}-${general.data.logo_url}`} settings={general.data} />
      <DataPanel organizationName={general.data.name} />
    </div>
  );
}

function EmailTab() {
  const email = useEmailSettings();
  if (email.isPending) return <Loading />;
  if (email.isError) return <Alert>Failed to load settings</Alert>;
  return (
    <div className="space-y-5">
      <InboundPanel address={email.data.inbound_address} />
      <EmailForm settings={email.data} />
      <MailboxImport />
      <UnfiledMail />
    </div>
  );
}

function SecurityTab() {
  const security = useSecuritySettings();
  if (security.isPending) return <Loading />;
  if (security.isError) return <Alert>Failed to load settings</Alert>;
  return <SecurityForm key={security.data.twoFactorPolicy} settings={security.data} />;
}

/** /settings (admins): sections General, Email Settings, Integrations and Billing, and the Billing & Subscriptions link. */
export function SettingsRoute() {
  const [params] = useSearchParams();
  const tab: Tab = TABS.some((t) => t.id === params.get("tab")) ? (params.get("tab") as Tab) : "general";
  return (
    <div className="space-y-6">
      <PageHeader
        title="Settings"
        lead="Your organization, its branding, email, integrations, security and audit log."
        actions={
          <Link
            to="/billing"
            className="flex items-center gap-3 rounded-lg border border-slate-200 bg-white px-4 py-3 text-sm shadow-sm hover:border-indigo-300"
          >
            <CreditCard className="size-5 text-indigo-600" aria-hidden="true" />
            <span>
              <span className="block font-medium text-slate-900">Billing &amp; Subscriptions</span>
              <span className="block text-xs text-slate-500">Plan, card and invoices</span>
            </span>
            <ChevronRight className="size-4 text-slate-400" aria-hidden="true" />
          </Link>
        }
      />
      {/* Each section has its own address, so this is navigation (links, the open one marked), not a tab widget. */}
      <nav aria-label="Settings sections">
        <ul className="flex gap-6 overflow-x-auto border-b border-slate-200">
          {TABS.map((t) => (
            <li key={t.id}>
              <Link
                to={t.id === "general" ? "/settings" : `/settings?tab=${t.id}`}
                aria-current={tab === t.id ? "page" : undefined}
                className={tabClasses(tab === t.id)}
              >
                {t.label}
              </Link>
            </li>
          ))}
          <li>
            <Link to="/billing" className={tabClasses(false)}>
              Billing
            </Link>
          </li>
        </ul>
      </nav>
      <div>
        {tab === "general" && <GeneralTab />}
        {tab === "email" && <EmailTab />}
        {tab === "integrations" && (
          <div className="space-y-5">
            <ApiKeysPanel />
            <WebhooksPanel kind="webhook" />
            <WebhooksPanel kind="slack" />
          </div>
        )}
        {tab === "security" && <SecurityTab />}
        {tab === "audit" && <AuditLogPanel />}
      </div>
    </div>
  );
}
