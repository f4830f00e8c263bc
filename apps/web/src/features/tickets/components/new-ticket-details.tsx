import { TICKET_PRIORITIES } from "@cove/contract/tickets.ts";
import { AttachFilesButton, type FileUploads, UploadList } from "../../../components/file-uploads.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { TextAreaField } from "../../../components/ui/text-field.tsx";
import type { FieldProps } from "../../../lib/contract-form.ts";
import { PRIORITY_LABELS } from "./ticket-format.ts";

const priorityOptions = TICKET_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }));

interface NewTicketDetailsProps {
  /** The description box's id, unique on the page. */
  id: string;
  rows: number;
  /** The form's uploads: a file pasted into the description is attached too. */
  files: FileUploads;
  /** The form's `field("description")` and `field("priority")`. */
  description: FieldProps;
  priority: FieldProps;
}

/** What a new ticket says after its subject, in the agent's form and the portal's: description, files and priority. */
export function NewTicketDetails({ id, rows, files, description, priority }: NewTicketDetailsProps) {
  return (
    <>
      <TextAreaField
        id={id}
        label="Description"
        rows={rows}
        className="resize-y"
        onPaste={files.onPaste}
        {...description}
      />
      <UploadList files={files} label="Files of this ticket" />
      <AttachFilesButton files={files} />
      <div className="sm:max-w-xs">
        <SelectField label="Priority" options={priorityOptions} {...priority} />
      </div>
    </>
  );
}
