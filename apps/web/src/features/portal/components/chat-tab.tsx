import { useQuery } from "@tanstack/react-query";
import { MessageCircle } from "lucide-react";
import { useState } from "react";
import { Alert } from "../../../components/ui/alert.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { chatWidgetAvailable, openChatWidget } from "../api/chat-widget.ts";
import { usePortal } from "../api/portal-context.ts";
import { accentButton } from "./portal-brand.ts";

/** Live chat: Start Chat opens the organization's chat widget when this server has live chat. */
export function ChatTab({ onSubmitTicket }: { onSubmitTicket: () => void }) {
  const portal = usePortal();
  const available = useQuery({
    queryKey: ["portal", "chat-widget"],
    queryFn: ({ signal }) => chatWidgetAvailable(signal),
  });
  const [starting, setStarting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function start() {
    setStarting(true);
    setFailure(null);
    try {
      await openChatWidget({
        orgSlug: portal.organization.slug,
        name: portal.customer.name,
        email: portal.customer.email,
        token: portal.token,
      });
    } catch (error) {
      setFailure(error instanceof Error ? error.message : "The chat could not be opened.");
    } finally {
      setStarting(false);
    }
  }

  return (
    <div className="flex flex-col items-center gap-4 rounded-lg border border-slate-200 bg-white px-6 py-10 text-center shadow-sm">
      <span className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-[var(--portal-accent-text,#4f46e5)]">
        <MessageCircle className="size-6" aria-hidden="true" />
      </span>
      <div>
        <h2 className="text-lg font-semibold text-slate-900">Chat with {portal.organization.name}</h2>
        <p className="mt-1 max-w-md text-sm text-slate-600">
          Our assistant answers right away from our help articles, and hands you to a person when you need one.
        </p>
      </div>
      {available.isPending ? (
        <Spinner
          className="size-5 text-[var(--portal-accent-text,#4f46e5)]"
          label="Checking whether chat is available"
        />
      ) : available.data ? (
        <button type="button" className={accentButton} disabled={starting} onClick={() => void start()}>
          {starting && <Spinner className="size-4" />}
          Start Chat
        </button>
      ) : (
        <div className="space-y-3">
          <p role="status" className="text-sm font-medium text-slate-700">
            Live chat is not available yet.
          </p>
          <button type="button" className={accentButton} onClick={onSubmitTicket}>
            Submit a ticket instead
          </button>
        </div>
      )}
      {failure && <Alert>{failure}</Alert>}
    </div>
  );
}
