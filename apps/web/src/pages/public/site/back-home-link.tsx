import { ArrowLeft } from "lucide-react";
import { SiteLink } from "./site-nav.tsx";

/** The way back to the landing page, above the title of a page a visitor opened from it (the demo, the AI test). */
export function BackHomeLink() {
  return (
    <SiteLink
      to="/"
      className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-slate-600 hover:text-slate-900"
    >
      <ArrowLeft className="size-4" aria-hidden="true" />
      Back to home
    </SiteLink>
  );
}
