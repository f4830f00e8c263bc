import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { buttonClasses } from "../../../components/ui/button.tsx";
import { NewTicketForm } from "../components/new-ticket-form.tsx";

export function NewTicketRoute() {
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <title>New ticket · Cove</title>
      <Link to="/tickets" className={buttonClasses("ghost", "sm", "-ml-3")}>
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to List
      </Link>
      <header>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">New ticket</h1>
        <p className="mt-1 text-sm text-slate-600">
          Log a request on a customer's behalf, for example after a phone call.
        </p>
      </header>
      <NewTicketForm />
    </div>
  );
}
