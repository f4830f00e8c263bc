import { BookOpen, MessageCircle, SquarePen } from "lucide-react";
import type { ReactNode } from "react";

function Card({ icon, title, text, onClick }: { icon: ReactNode; title: string; text: string; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="flex items-start gap-3 rounded-lg border border-slate-200 bg-white p-4 text-left shadow-sm transition hover:border-[var(--portal-accent,#4f46e5)] hover:shadow focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-[var(--portal-accent-text,#4f46e5)]"
    >
      <span className="flex size-10 shrink-0 items-center justify-center rounded-md bg-slate-100 text-[var(--portal-accent-text,#4f46e5)]">
        {icon}
      </span>
      <span className="min-w-0">
        <span className="block font-semibold text-slate-900">{title}</span>
        <span className="mt-0.5 block text-sm text-slate-600">{text}</span>
      </span>
    </button>
  );
}

/** Spec: the portal's three quick cards. */
export function QuickCards({
  onSubmitTicket,
  onBrowseHelp,
  onLiveChat,
}: {
  onSubmitTicket: () => void;
  onBrowseHelp: () => void;
  onLiveChat: () => void;
}) {
  return (
    <div className="grid gap-3 sm:grid-cols-3">
      <Card
        icon={<SquarePen className="size-5" aria-hidden="true" />}
        title="Submit Ticket"
        text="Tell us what you need; we answer by email and here."
        onClick={onSubmitTicket}
      />
      <Card
        icon={<BookOpen className="size-5" aria-hidden="true" />}
        title="Browse Help"
        text="Find answers in our help articles."
        onClick={onBrowseHelp}
      />
      <Card
        icon={<MessageCircle className="size-5" aria-hidden="true" />}
        title="Live Chat"
        text="Talk to us now."
        onClick={onLiveChat}
      />
    </div>
  );
}
