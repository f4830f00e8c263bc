import { BackLink, PageHeader } from "../../../components/ui/page-header.tsx";
import { NewTicketForm } from "../components/new-ticket-form.tsx";

export function NewTicketRoute() {
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <BackLink to="/tickets">Back to List</BackLink>
      <PageHeader title="New ticket" lead="Log a request on a customer's behalf, for example after a phone call." />
      <NewTicketForm />
    </div>
  );
}
