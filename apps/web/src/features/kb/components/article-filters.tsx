import { type Category, KB_ARTICLE_STATUSES } from "@cove/contract/kb.ts";
import { X } from "lucide-react";
import { SearchBox } from "../../../components/search-box.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { PhoneFilters } from "../../../components/ui/phone-filters.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import type { ArticleListParams } from "../api/kb.queries.ts";
import { type ArticleFilters as Filters, hasArticleFilters } from "./article-list-params.ts";
import { ARTICLE_STATUS_LABELS } from "./kb-format.ts";

interface ArticleFiltersProps {
  params: ArticleListParams;
  categories: Category[];
  onChange: (change: Partial<Filters>, options?: { replace?: boolean }) => void;
}

export function ArticleFilters({ params, categories, onChange }: ArticleFiltersProps) {
  const categoryOptions = [
    { value: "", label: "All categories" },
    ...categories.map((c) => ({ value: c.id, label: c.name })),
    { value: "none", label: "No category" },
  ];
  // A link may name a category that is gone: keep the filter visible rather than silently showing "All".
  if (params.category_id && !categoryOptions.some((o) => o.value === params.category_id)) {
    categoryOptions.push({ value: params.category_id, label: "Other category" });
  }
  const statusOptions = [
    { value: "", label: "All statuses" },
    ...KB_ARTICLE_STATUSES.map((s) => ({ value: s, label: ARTICLE_STATUS_LABELS[s] })),
  ];

  return (
    <div className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_auto] lg:items-end">
      <SearchBox
        label="Search"
        placeholder="Title, text or phrasing…"
        className="sm:col-span-2 lg:col-span-1"
        value={params.search ?? ""}
        onSearch={(search, replace) => onChange({ search }, { replace })}
      />
      <PhoneFilters active={[params.category_id, params.status].filter(Boolean).length}>
        <SelectField
          label="Category"
          options={categoryOptions}
          value={params.category_id ?? ""}
          onChange={(e) => onChange({ category_id: e.target.value || undefined })}
        />
        <SelectField
          label="Status"
          options={statusOptions}
          value={params.status ?? ""}
          onChange={(e) => onChange({ status: KB_ARTICLE_STATUSES.find((s) => s === e.target.value) })}
        />
      </PhoneFilters>
      {hasArticleFilters(params) ? (
        <Button
          variant="ghost"
          onClick={() => onChange({ search: undefined, category_id: undefined, status: undefined })}
        >
          <X className="size-4" aria-hidden="true" />
          Clear filters
        </Button>
      ) : (
        <span className="hidden lg:block" />
      )}
    </div>
  );
}
