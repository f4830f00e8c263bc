import { ArrowRight } from "lucide-react";
import type { ReactNode } from "react";
import { ctaClasses } from "./cta.ts";
import { SiteLink } from "./site-nav.tsx";

interface TrialLinksProps {
  /** Where the second call to action leads, and its text. */
  to: string;
  children: ReactNode;
  /** On the indigo band (the landing page's closing call), in the inverse colours. */
  onDark?: boolean;
  /** An arrow after "Start free trial" (the landing page's opening). */
  arrow?: boolean;
  className: string;
}

/** The public pages' pair of calls to action: start the free trial first, then a second, lighter one. */
export function TrialLinks({ to, children, onDark = false, arrow = false, className }: TrialLinksProps) {
  return (
    <div className={className}>
      <SiteLink to="/register" className={ctaClasses(onDark ? "inverse" : "primary")}>
        Start free trial
        {arrow && <ArrowRight className="size-4" aria-hidden="true" />}
      </SiteLink>
      <SiteLink to={to} className={ctaClasses(onDark ? "outline-inverse" : "secondary")}>
        {children}
      </SiteLink>
    </div>
  );
}
