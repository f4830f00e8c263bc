import { describe, expect, it } from "vitest";
import { slackEscape, slackMessage } from "../../src/modules/webhooks/webhooks.slack.ts";

describe("Slack messages", () => {
  it("escapes &, < and > only, as Slack asks", () => {
    expect(slackEscape("a & <b> \"c\" 'd'")).toBe("a &amp; &lt;b&gt; \"c\" 'd'");
  });

  it("says a chat waits for a person, with a link to it and the reason", () => {
    const message = slackMessage(
      {
        type: "chat.handed_off",
        organization: { slug: "acme" },
        data: { chat: { id: "c1", visitor_name: "Zoë <script>" }, reason: "person_requested" },
      },
      "https://help.example.com/",
    );
    expect(message.text).toBe(
      "A chat with Zoë &lt;script&gt; waits for a person (the visitor asked for a person): <https://help.example.com/chat?session=c1|Open the chat>",
    );
  });

  it("keeps a | in a subject from ending the link's URL part", () => {
    const message = slackMessage(
      {
        type: "ticket.created",
        organization: { slug: "acme" },
        data: { ticket: { id: "t1", ticket_number: 7, subject: "a|b", requester_name: "Ana" } },
      },
      "https://help.example.com",
    );
    expect(message.text).toBe("New ticket <https://help.example.com/tickets/t1|#7 a¦b> from Ana");
  });
});
