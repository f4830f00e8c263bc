import { type Category, createCategoryBody } from "@cove/contract/kb.ts";
import { Plus } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { FormActions } from "../../../components/ui/form-actions.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { TextField } from "../../../components/ui/text-field.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useContractForm } from "../../../lib/contract-form.ts";
import { useCreateCategory } from "../api/kb.mutations.ts";

interface CategoryFieldProps {
  categories: Category[];
  value: string;
  onChange: (categoryId: string) => void;
  disabled?: boolean;
}

/** Pick a category, or name a new one right here (it is created at once and selected). */
export function CategoryField({ categories, value, onChange, disabled }: CategoryFieldProps) {
  const [adding, setAdding] = useState(false);
  const createCategory = useCreateCategory();
  const { field, setError, clearErrors, reset, submit } = useContractForm(createCategoryBody, { name: "" });

  const add = submit(
    ["name"],
    async (body) => {
      const category = await createCategory.mutateAsync(body);
      onChange(category.id);
      toast.success(`Category "${category.name}" created`);
      setAdding(false);
      reset();
    },
    (err) => setError("name", { message: errorText(err, "The category could not be created. Please try again.") }),
  );

  const options = [{ value: "", label: "No category" }, ...categories.map((c) => ({ value: c.id, label: c.name }))];
  return (
    <div className="space-y-3">
      <div className="flex items-end gap-2">
        <div className="min-w-0 flex-1">
          <SelectField
            label="Category"
            options={options}
            value={value}
            disabled={disabled}
            onChange={(e) => onChange(e.target.value)}
          />
        </div>
        {!adding && (
          <Button variant="secondary" onClick={() => setAdding(true)} disabled={disabled}>
            <Plus className="size-4" aria-hidden="true" />
            New category
          </Button>
        )}
      </div>
      {adding && (
        // Not a <form>: it sits inside the article's form, and Enter here must add the category, not save the article.
        <fieldset className="space-y-3 rounded-md border border-slate-200 bg-slate-50 p-3">
          <legend className="sr-only">New category</legend>
          <TextField
            label="New category name"
            maxLength={60}
            autoFocus
            {...field("name")}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                void add();
              } else if (e.key === "Escape") {
                e.preventDefault();
                setAdding(false);
              }
            }}
          />
          <FormActions
            type="button"
            size="sm"
            pending={createCategory.isPending}
            onClick={() => void add()}
            cancelVariant="ghost"
            onCancel={() => {
              setAdding(false);
              clearErrors();
            }}
          >
            Add category
          </FormActions>
        </fieldset>
      )}
    </div>
  );
}
