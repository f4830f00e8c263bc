import { KB_QUESTION_MAX, KB_QUESTIONS_MAX } from "@cove/contract/kb.ts";
import { Plus, X } from "lucide-react";
import type { UseFormRegister } from "react-hook-form";
import { Button } from "../../../components/ui/button.tsx";
import { inputClasses } from "../../../components/ui/text-field.tsx";
import type { EditorValues } from "./editor-values.ts";

interface PhrasingsFieldProps {
  ids: string[];
  register: UseFormRegister<EditorValues>;
  errors: (string | undefined)[];
  onAdd: () => void;
  onRemove: (index: number) => void;
}

/** Other ways customers ask the question: search and the AI assistant match these too. */
export function PhrasingsField({ ids, register, errors, onAdd, onRemove }: PhrasingsFieldProps) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-700">Alternative phrasings</legend>
      <p id="phrasings-hint" className="text-xs text-slate-500">
        Other ways customers ask this question, for example "Can I send it back?". Search and the AI assistant match
        them too.
      </p>
      <ul className="space-y-2">
        {ids.map((id, index) => {
          const error = errors[index];
          return (
            <li key={id}>
              <div className="flex gap-2">
                <input
                  aria-label={`Alternative phrasing ${index + 1}`}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `phrasing-${id}-error` : "phrasings-hint"}
                  maxLength={KB_QUESTION_MAX}
                  placeholder="How do I…?"
                  className={inputClasses}
                  {...register(`questions.${index}.text`)}
                />
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove phrasing ${index + 1}`}
                  onClick={() => onRemove(index)}
                >
                  <X className="size-4" aria-hidden="true" />
                </Button>
              </div>
              {error && (
                <p id={`phrasing-${id}-error`} className="mt-1 text-sm text-red-600">
                  {error}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      <Button variant="secondary" size="sm" onClick={onAdd} disabled={ids.length >= KB_QUESTIONS_MAX}>
        <Plus className="size-4" aria-hidden="true" />
        Add a phrasing
      </Button>
    </fieldset>
  );
}
