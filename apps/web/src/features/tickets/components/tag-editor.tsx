import { TAG_MAX, TAGS_PER_TICKET_MAX } from "@cove/contract/tickets.ts";
import { X } from "lucide-react";
import { type KeyboardEvent, useId, useState } from "react";
import { inputClasses } from "../../../components/ui/text-field.tsx";

interface TagEditorProps {
  tags: string[];
  onChange: (tags: string[]) => void;
}

/** Tags as removable chips; Enter or a comma adds what was typed. Tags are lower-case, as the server stores them. */
export function TagEditor({ tags, onChange }: TagEditorProps) {
  const id = useId();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);

  function add() {
    const tag = text.trim().toLowerCase();
    if (tag === "") return;
    if (tag.length > TAG_MAX) return setError(`A tag must be at most ${TAG_MAX} characters`);
    setText("");
    setError(null);
    if (tags.includes(tag)) return;
    if (tags.length >= TAGS_PER_TICKET_MAX) return setError(`A ticket can have at most ${TAGS_PER_TICKET_MAX} tags`);
    onChange([...tags, tag]);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter" || event.key === ",") {
      event.preventDefault();
      add();
    } else if (event.key === "Backspace" && text === "" && tags.length > 0) {
      onChange(tags.slice(0, -1));
    }
  }

  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        Tags
      </label>
      {tags.length > 0 && (
        <ul aria-label="Current tags" className="flex flex-wrap gap-1.5">
          {tags.map((tag) => (
            <li
              key={tag}
              className="inline-flex max-w-full items-center gap-1 rounded-full bg-indigo-50 py-0.5 pr-1 pl-2.5 text-xs font-medium text-indigo-800"
            >
              <span className="truncate">{tag}</span>
              <button
                type="button"
                aria-label={`Remove tag ${tag}`}
                onClick={() => onChange(tags.filter((t) => t !== tag))}
                className="rounded-full p-0.5 hover:bg-indigo-100"
              >
                <X className="size-3" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        id={id}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={add}
        placeholder="Add a tag and press Enter"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={inputClasses}
      />
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}
