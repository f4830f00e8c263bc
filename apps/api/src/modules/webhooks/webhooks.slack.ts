/**
 * A delivery to a Slack incoming webhook: the event as Slack's message format ({ text, blocks } with mrkdwn), with a
 * link to the ticket or chat in Cove. Text from customers is escaped as Slack asks (&, < and > only), so a subject
 * cannot make a link or mention of its own.
 */

export const slackEscape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

interface Payload {
  type: string;
  organization: { slug: string };
  data: Record<string, unknown>;
}

interface TicketLike {
  id: string;
  ticket_number: number;
  subject: string;
  requester_name?: string;
  priority?: string;
}

const KIND_TEXT: Record<string, string> = { first_response: "First response", resolution: "Resolution" };
const REASON_TEXT: Record<string, string> = {
  person_requested: "the visitor asked for a person",
  low_confidence: "the assistant was not sure of its answer",
  ai_unavailable: "the assistant was unavailable",
};

/** Slack's link: <url|label>, the label escaped (a | in it would end the URL part, so it is written as a look-alike). */
const link = (url: string, label: string) => `<${url}|${slackEscape(label).replace(/\|/g, "¦")}>`;

function ticketLine(base: string, ticket: TicketLike): string {
  return link(`${base}/tickets/${ticket.id}`, `#${ticket.ticket_number} ${ticket.subject}`);
}

/** The message for one delivery's payload; publicUrl is Cove's address (PUBLIC_URL). */
export function slackMessage(payload: Payload, publicUrl: string): { text: string; blocks: unknown[] } {
  const base = publicUrl.replace(/\/+$/, "");
  const data = payload.data;
  let text: string;
  switch (payload.type) {
    case "ticket.created": {
      const ticket = data.ticket as TicketLike;
      text = `New ticket ${ticketLine(base, ticket)} from ${slackEscape(ticket.requester_name ?? "a customer")}`;
      break;
    }
    case "ticket.sla_breached": {
      const ticket = data.ticket as TicketLike;
      text = `SLA breached: ${KIND_TEXT[String(data.kind)] ?? "Target"} time passed on ${ticketLine(base, ticket)}`;
      break;
    }
    case "chat.handed_off": {
      const chat = data.chat as { id: string; visitor_name: string };
      const why = REASON_TEXT[String(data.reason)] ?? "it needs a person";
      text = `A chat with ${slackEscape(chat.visitor_name)} waits for a person (${why}): ${link(`${base}/chat?session=${chat.id}`, "Open the chat")}`;
      break;
    }
    default:
      text = `Cove is connected to this channel: ${link(`${base}/settings?tab=integrations`, "Integrations")}`;
  }
  return { text, blocks: [{ type: "section", text: { type: "mrkdwn", text } }] };
}
