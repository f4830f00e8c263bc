import type { ReactNode } from "react";
import { PageMeta } from "../site/page-meta.tsx";
import { Container } from "../site/section.tsx";
import { SiteLayout } from "../site/site-layout.tsx";
import { SiteLink } from "../site/site-nav.tsx";

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

interface LegalPageProps {
  title: string;
  description: string;
  updated: string;
  lead: ReactNode;
  /** Shown above the first section (the privacy policy's summary). */
  summary?: ReactNode;
  sections: LegalSection[];
}

// Typography of the policy text, set once here for every legal page.
const prose =
  "text-base leading-7 text-slate-700 [&_a]:font-medium [&_a]:text-indigo-700 [&_a]:underline [&_a]:underline-offset-2 [&_h3]:mt-6 [&_h3]:font-semibold [&_h3]:text-slate-900 [&_li]:mt-2 [&_p]:mt-4 [&_strong]:font-semibold [&_strong]:text-slate-900 [&_ul]:mt-4 [&_ul]:list-disc [&_ul]:pl-5";

/** Terms and privacy: title, date, table of contents with a link to each numbered section, then the sections. */
export function LegalPage({ title, description, updated, lead, summary, sections }: LegalPageProps) {
  return (
    <SiteLayout>
      <PageMeta title={`${title} · Cove`} description={description} />
      <div className="border-b border-slate-200 bg-slate-50">
        <Container className="py-14 sm:py-16">
          <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase">Legal</p>
          <h1 className="mt-2 text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">{title}</h1>
          <p className="mt-4 text-sm text-slate-600">
            Last updated <time dateTime="2025-08-21">{updated}</time>
          </p>
          <p className="mt-6 max-w-3xl text-lg text-slate-600">{lead}</p>
        </Container>
      </div>

      <Container className="grid gap-10 py-12 sm:py-16 lg:grid-cols-[15rem_1fr] lg:gap-16">
        <nav aria-labelledby="toc-title" className="lg:sticky lg:top-24 lg:self-start">
          <h2 id="toc-title" className="text-sm font-semibold text-slate-900">
            Table of contents
          </h2>
          <ol className="mt-4 space-y-1 border-l border-slate-200 text-sm">
            {sections.map((section, index) => (
              <li key={section.id}>
                <SiteLink
                  to={`#${section.id}`}
                  className="-ml-px block border-l border-transparent py-1 pl-4 text-slate-600 hover:border-slate-400 hover:text-slate-900"
                >
                  {index + 1}. {section.title}
                </SiteLink>
              </li>
            ))}
          </ol>
        </nav>

        <div className="min-w-0 max-w-3xl">
          {summary}
          {sections.map((section, index) => (
            <section
              key={section.id}
              id={section.id}
              aria-labelledby={`${section.id}-title`}
              tabIndex={-1}
              className="scroll-mt-24 border-t border-slate-200 py-10 first:border-t-0 first:pt-0 focus:outline-none"
            >
              <h2 id={`${section.id}-title`} className="text-2xl font-semibold tracking-tight text-slate-900">
                {index + 1}. {section.title}
              </h2>
              <div className={prose}>{section.body}</div>
            </section>
          ))}
        </div>
      </Container>
    </SiteLayout>
  );
}

/** A contact address on the legal pages. */
export function MailLink({ address }: { address: string }) {
  return <a href={`mailto:${address}`}>{address}</a>;
}
