import { chatPublicApi } from "@cove/contract/chat.ts";
import { useQuery } from "@tanstack/react-query";
import { Copy } from "lucide-react";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { CARD, TitledSection } from "../../../components/ui/titled-section.tsx";
import { callRoute } from "../../../lib/api-client.ts";
import { toastError } from "../../../lib/toast-error.ts";

/** The one tag a website adds to show the chat (docs/decisions/2026-11-25-live-chat.md). */
export function widgetSnippet(origin: string, slug: string, color: string | null): string {
  const colour = color ? ` data-color="${color}"` : "";
  return `<script src="${origin}/widget.js" data-org="${slug}"${colour} async></script>`;
}

/** Settings for the chat widget: the snippet to copy onto the organization's website. */
export function WidgetSnippetCard({ slug }: { slug: string }) {
  const look = useQuery({
    queryKey: ["chat", "widget-look", slug],
    queryFn: ({ signal }) => callRoute(chatPublicApi.widget, { params: { orgSlug: slug }, signal, anonymous: true }),
  });
  const snippet = widgetSnippet(window.location.origin, slug, look.data?.brand_color ?? null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      toast.success("Snippet copied");
    } catch {
      toastError(null, "Copy failed: select the snippet and copy it yourself.");
    }
  };
  return (
    <TitledSection
      id="chat-widget"
      titleId="widget-title"
      title="Chat widget for your website"
      // Clear of the sticky top bar when a link scrolls to it.
      className={`${CARD} scroll-mt-20`}
      titleClassName="text-sm font-semibold text-slate-900"
    >
      <p className="mt-1 text-sm text-slate-600">
        Paste this tag before <code>&lt;/body&gt;</code> on your site. Visitors chat with the assistant first; the
        conversations appear in Live Chat. With a Content-Security-Policy, allow this address in script-src and
        connect-src (https and wss).
      </p>
      <pre className="mt-3 rounded-md bg-slate-900 p-3 text-xs break-all whitespace-pre-wrap text-slate-100">
        <code>{snippet}</code>
      </pre>
      <Button variant="secondary" size="sm" className="mt-3" onClick={() => void copy()}>
        <Copy className="size-4" aria-hidden="true" />
        Copy snippet
      </Button>
    </TitledSection>
  );
}
