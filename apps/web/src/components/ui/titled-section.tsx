import type { ReactNode } from "react";

/** A screen's panel: a white card of the sidebars, dashboards and settings tabs. */
export const PANEL = "rounded-lg border border-slate-200 bg-white p-4 shadow-sm";
/** The roomier card of the overview pages (assistant, live chat, billing). */
export const CARD = "rounded-xl border border-slate-200 bg-white p-5 shadow-sm";

interface TitledSectionProps {
  /** The section's own id, for a link to it (`#chat-widget`). */
  id?: string;
  /** The heading's id: the heading names the section (a region of that name). */
  titleId: string;
  title: ReactNode;
  /** The section's frame (PANEL, CARD or its own). */
  className: string;
  /** The heading's type and spacing. */
  titleClassName: string;
  children: ReactNode;
}

/** A section named by its heading (an h2), then what it holds. */
export function TitledSection({ id, titleId, title, className, titleClassName, children }: TitledSectionProps) {
  return (
    <section id={id} aria-labelledby={titleId} className={className}>
      <h2 id={titleId} className={titleClassName}>
        {title}
      </h2>
      {children}
    </section>
  );
}
