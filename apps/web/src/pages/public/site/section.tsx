import { clsx } from "clsx";
import type { ReactNode } from "react";

interface ContainerProps {
  /** narrow: a column of reading width (questions, long text). */
  width?: "page" | "narrow";
  className?: string;
  children: ReactNode;
}

/** The content widths and side padding of the public pages. */
export function Container({ width = "page", className, children }: ContainerProps) {
  return (
    <div
      className={clsx("mx-auto w-full px-4 sm:px-6 lg:px-8", width === "page" ? "max-w-6xl" : "max-w-3xl", className)}
    >
      {children}
    </div>
  );
}

interface SectionHeadingProps {
  id?: string;
  eyebrow: string;
  title: string;
  lead?: ReactNode;
  align?: "center" | "left";
}

/** Eyebrow, heading and lead of a page section, in the public pages' type scale. */
export function SectionHeading({ id, eyebrow, title, lead, align = "center" }: SectionHeadingProps) {
  return (
    <div className={clsx("max-w-2xl", align === "center" && "mx-auto text-center")}>
      <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase">{eyebrow}</p>
      <h2 id={id} className="mt-2 text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-4xl">
        {title}
      </h2>
      {lead && <p className="mt-4 text-lg text-pretty text-slate-600">{lead}</p>}
    </div>
  );
}

interface PageSectionProps extends Omit<SectionHeadingProps, "id" | "align"> {
  /** The section's own id, where the page links to it (the landing page's #features). */
  id?: string;
  /** The id of the section's heading, which names the section. */
  titleId: string;
  /** The band's background and padding. */
  className: string;
  width?: ContainerProps["width"];
  children: ReactNode;
}

/** A band of a public page: its centred heading (SectionHeading), then what it holds, at the page's width. */
export function PageSection({ id, titleId, className, width, eyebrow, title, lead, children }: PageSectionProps) {
  return (
    <section id={id} aria-labelledby={titleId} className={className}>
      <Container width={width}>
        <SectionHeading id={titleId} eyebrow={eyebrow} title={title} lead={lead} />
        {children}
      </Container>
    </section>
  );
}

interface CardTextProps {
  title: string;
  text: string;
  /** lg: a card of a three-column row; sm: of a denser grid. */
  size: "lg" | "sm";
  /** The heading's distance from what stands above it in the card. */
  titleClassName: string;
}

/** The heading and text of a card on a public page (an audience, a step, a feature, a principle). */
export function CardText({ title, text, size, titleClassName }: CardTextProps) {
  return (
    <>
      <h3 className={clsx(titleClassName, "font-semibold text-slate-900", size === "lg" ? "text-lg" : "text-base")}>
        {title}
      </h3>
      <p className={clsx("text-slate-600", size === "lg" ? "mt-2 text-base" : "mt-1.5 text-sm")}>{text}</p>
    </>
  );
}

interface PageTopProps {
  /** The id of the page's title (PageTitle), which names the band. */
  titleId: string;
  /** The band's padding. */
  className: string;
  children: ReactNode;
}

/** The opening band of a public page: its title and what follows, on the pale indigo wash the pages start with. */
export function PageTop({ titleId, className, children }: PageTopProps) {
  return (
    <section aria-labelledby={titleId} className="bg-gradient-to-b from-indigo-50 to-white">
      <Container className={className}>{children}</Container>
    </section>
  );
}

/** A public page's title, in the pages' largest type; `className` places it and bounds its width. */
export function PageTitle({ id, className, children }: { id: string; className?: string; children: ReactNode }) {
  return (
    <h1
      id={id}
      className={clsx("text-4xl font-bold tracking-tight text-balance text-slate-900 sm:text-5xl", className)}
    >
      {children}
    </h1>
  );
}
