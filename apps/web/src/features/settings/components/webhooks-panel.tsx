import {
  createWebhookBody,
  type DeliveryEvent,
  SLACK_EVENTS,
  WEBHOOK_EVENTS,
  type Webhook,
  type WebhookKind,
} from "@cove/contract/webhooks.ts";
import { Copy, Webhook as WebhookIcon } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { Alert } from "../../../components/ui/alert.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { DataTable } from "../../../components/ui/data-table.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { useContractForm } from "../../../lib/contract-form.ts";
import { toastError } from "../../../lib/toast-error.ts";
import {
  useCreateWebhook,
  useDeleteWebhook,
  useDeliveries,
  useRedeliver,
  useRollSecret,
  useSendTest,
  useUpdateWebhook,
  useWebhooks,
} from "../api/webhooks.api.ts";

const EVENT_LABELS: Record<DeliveryEvent, string> = {
  "ticket.created": "New ticket",
  "ticket.updated": "Ticket changed",
  "ticket.solved": "Ticket solved",
  "comment.added": "Reply or note added",
  "chat.started": "Chat started",
  "chat.message": "Chat message",
  "chat.handed_off": "Chat handed to the team",
  "contact.created": "New customer",
  "csat.answered": "Satisfaction survey answered",
  "ticket.sla_breached": "SLA breached",
  "webhook.test": "Test event",
};

const TEXT: Record<WebhookKind, { title: string; intro: string; urlLabel: string; placeholder: string; add: string }> =
  {
    webhook: {
      title: "Webhooks",
      intro:
        'Cove posts JSON to your URL when something happens, signed in its Cove-Signature header: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the endpoint\'s secret>. Failed deliveries are retried for about a day.',
      urlLabel: "Endpoint URL",
      placeholder: "https://example.com/cove-webhooks",
      add: "Add webhook",
    },
    slack: {
      title: "Slack",
      intro:
        "Post new tickets, chats handed to the team and SLA breaches to a Slack channel: in Slack, add an Incoming Webhook to the channel and paste its URL here.",
      urlLabel: "Slack incoming-webhook URL",
      placeholder: "https://hooks.slack.com/services/...",
      add: "Connect Slack",
    },
  };

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" }) : "";

function EventChoices(props: {
  kind: WebhookKind;
  value: readonly DeliveryEvent[];
  onChange: (v: DeliveryEvent[]) => void;
}) {
  const list: readonly DeliveryEvent[] = props.kind === "slack" ? SLACK_EVENTS : WEBHOOK_EVENTS;
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">Events</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {list.map((event) => (
          <label key={event} className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="size-4 rounded border-slate-300"
              checked={props.value.includes(event)}
              onChange={(e) =>
                props.onChange(e.target.checked ? [...props.value, event] : props.value.filter((x) => x !== event))
              }
            />
            {EVENT_LABELS[event]} <code className="text-xs text-slate-500">{event}</code>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function SecretShown({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <Alert tone="success">
      <p className="font-medium">Copy the signing secret now: it will not be shown again.</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code data-testid="webhook-secret" className="rounded bg-white px-2 py-1 font-mono text-xs break-all">
          {secret}
        </code>
        <Button
          size="sm"
          variant="secondary"
          onClick={async () => {
            await navigator.clipboard?.writeText(secret);
            toast.success("Secret copied");
          }}
        >
          <Copy className="size-4" aria-hidden="true" /> Copy
        </Button>
        <Button size="sm" variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
    </Alert>
  );
}

function DeliveryLog({ webhook }: { webhook: Webhook }) {
  const log = useDeliveries(webhook.id);
  const redeliver = useRedeliver();
  if (log.isPending) return <p className="px-4 py-3 text-sm text-slate-500">Loading deliveries...</p>;
  if (log.isError) return <Alert>Failed to load deliveries</Alert>;
  if (log.data.deliveries.length === 0) return <p className="px-4 py-3 text-sm text-slate-500">No deliveries yet.</p>;
  return (
    <DataTable dense columns={["Time", "Event", "Result", "Duration", "Answer", { label: "Actions", srOnly: true }]}>
      {log.data.deliveries.map((d) => (
        <tr key={d.id}>
          <td className="px-3 py-2 whitespace-nowrap">{when(d.last_attempt_at ?? d.created_at)}</td>
          <td className="px-3 py-2 font-mono">{d.event}</td>
          <td className="px-3 py-2 whitespace-nowrap">
            {d.status === "delivered" ? "Delivered" : d.status === "failed" ? "Failed" : "Pending"}
            {d.status_code !== null ? ` (${d.status_code})` : ""}
            {d.attempts > 1 ? `, ${d.attempts} attempts` : ""}
          </td>
          <td className="px-3 py-2 whitespace-nowrap">{d.duration_ms !== null ? `${d.duration_ms} ms` : ""}</td>
          <td className="max-w-64 truncate px-3 py-2" title={d.error ?? d.response ?? ""}>
            {d.error ?? d.response ?? ""}
          </td>
          <td className="px-3 py-2 text-right">
            <Button
              size="sm"
              variant="ghost"
              disabled={!webhook.enabled}
              onClick={async () => {
                try {
                  await redeliver.mutateAsync({ id: webhook.id, deliveryId: d.id });
                  toast.success("Sent again");
                } catch (error) {
                  toastError(error, "Failed to send again");
                }
              }}
            >
              Send again
            </Button>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

function EndpointRow({ webhook, onSecret }: { webhook: Webhook; onSecret: (secret: string) => void }) {
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const test = useSendTest();
  const roll = useRollSecret();
  const [showLog, setShowLog] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const act = async (work: () => Promise<unknown>, done: string, failed: string) => {
    try {
      await work();
      toast.success(done);
    } catch (error) {
      toastError(error, failed);
    }
  };
  return (
    <li className="space-y-2 p-4">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all text-slate-900">{webhook.url}</p>
          <p className="mt-1 text-xs text-slate-500">{webhook.events.map((e) => EVENT_LABELS[e]).join(", ")}</p>
          <p className="mt-1 text-xs">
            {webhook.enabled ? (
              <span className="text-emerald-700">On</span>
            ) : (
              <span className="text-red-700">Off{webhook.disabled_reason ? `: ${webhook.disabled_reason}` : ""}</span>
            )}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="secondary"
            pending={update.isPending}
            onClick={() =>
              act(
                () => update.mutateAsync({ id: webhook.id, body: { enabled: !webhook.enabled } }),
                webhook.enabled ? "Turned off" : "Turned on",
                "Failed to change the webhook",
              )
            }
          >
            {webhook.enabled ? "Turn off" : "Turn on"}
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={!webhook.enabled}
            pending={test.isPending}
            onClick={() => act(() => test.mutateAsync(webhook.id), "Test event sent", "Failed to send a test event")}
          >
            Send a test event
          </Button>
          {webhook.kind === "webhook" && (
            <Button
              size="sm"
              variant="ghost"
              pending={roll.isPending}
              onClick={() =>
                act(
                  async () => onSecret((await roll.mutateAsync(webhook.id)).secret),
                  "New secret made: the old one works for 24 more hours",
                  "Failed to roll the secret",
                )
              }
            >
              Roll secret
            </Button>
          )}
          <Button size="sm" variant="ghost" aria-expanded={showLog} onClick={() => setShowLog(!showLog)}>
            {showLog ? "Hide deliveries" : "Deliveries"}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setDeleting(true)}>
            Delete
          </Button>
        </div>
      </div>
      {showLog && <DeliveryLog webhook={webhook} />}
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title="Delete this integration?"
        description="Cove stops sending to it at once, and its delivery log is deleted."
        confirmLabel="Delete"
        tone="danger"
        pending={remove.isPending}
        onConfirm={async () => {
          await act(() => remove.mutateAsync(webhook.id), "Deleted", "Failed to delete");
          setDeleting(false);
        }}
      />
    </li>
  );
}

const webhookForm = createWebhookBody.pick({ url: true, events: true });

/** Adds an endpoint: its URL and the events it gets. A refusal about either is said beside the URL. */
function AddEndpointForm({ kind, onSecret }: { kind: WebhookKind; onSecret: (secret: string) => void }) {
  const text = TEXT[kind];
  const create = useCreateWebhook();
  const {
    register,
    watch,
    setValue,
    submit,
    formState: { errors },
  } = useContractForm(webhookForm, {
    url: "",
    events: kind === "slack" ? [...SLACK_EVENTS] : ["ticket.created"],
  });
  const [url, events] = watch(["url", "events"]);

  // One message per failure: beside the field it is about (the URL, the events), else the toast.
  const onCreate = submit(
    ["url", "events"],
    async (values) => {
      const answer = await create.mutateAsync({ kind, ...values, enabled: true });
      if (kind === "webhook") onSecret(answer.secret);
      setValue("url", "");
      toast.success(kind === "slack" ? "Slack connected" : "Webhook added");
    },
    (err) => toastError(err, kind === "slack" ? "Failed to connect Slack" : "Failed to add the webhook"),
  );

  return (
    <form onSubmit={onCreate} noValidate className="space-y-3">
      <TextField
        label={text.urlLabel}
        type="url"
        placeholder={text.placeholder}
        maxLength={2000}
        error={errors.url?.message ?? errors.events?.message}
        required
        {...register("url")}
      />
      <EventChoices kind={kind} value={events} onChange={(v) => setValue("events", v)} />
      <Button type="submit" pending={create.isPending} disabled={url.trim() === "" || events.length === 0}>
        {text.add}
      </Button>
    </form>
  );
}

/** Settings > Integrations: a section of webhooks (kind webhook) or of Slack channels (kind slack). */
export function WebhooksPanel({ kind }: { kind: WebhookKind }) {
  const text = TEXT[kind];
  const all = useWebhooks();
  const [secret, setSecret] = useState<string | null>(null);
  const headingId = useId();
  const mine = all.data?.webhooks.filter((w) => w.kind === kind) ?? [];

  return (
    <section
      aria-labelledby={headingId}
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div>
        <h2 id={headingId} className="text-sm font-semibold text-slate-900">
          {text.title}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{text.intro}</p>
      </div>
      <AddEndpointForm kind={kind} onSecret={setSecret} />
      {secret && <SecretShown secret={secret} onDone={() => setSecret(null)} />}
      {all.isError ? (
        <Alert>Failed to load integrations</Alert>
      ) : all.isPending ? (
        <p className="text-sm text-slate-500">Loading...</p>
      ) : mine.length === 0 ? (
        <p className="flex items-center gap-2 text-sm text-slate-500">
          <WebhookIcon className="size-4" aria-hidden="true" />
          {kind === "slack" ? "Slack is not connected." : "No webhooks yet."}
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
          {mine.map((w) => (
            <EndpointRow key={w.id} webhook={w} onSecret={setSecret} />
          ))}
        </ul>
      )}
    </section>
  );
}
