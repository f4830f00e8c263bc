import type { ReactNode } from "react";
import { PageMeta } from "../site/page-meta.tsx";
import { Container } from "../site/section.tsx";
import { SiteLayout } from "../site/site-layout.tsx";

/** A developer page: in the public site's frame at the page width, kept out of search engines. */
export function DevPage({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <SiteLayout>
      <PageMeta title={title} description={description} />
      <meta name="robots" content="noindex" />
      <Container className="py-12 sm:py-16">{children}</Container>
    </SiteLayout>
  );
}

/** A developer page's eyebrow, title and what the page is for. */
export function DevHeading({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase">Developer page</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
      <p className="mt-2 max-w-2xl text-base text-slate-600">{children}</p>
    </>
  );
}
