import { clsx } from "clsx";
import { Search } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { inputClasses } from "./ui/text-field.tsx";

export const SEARCH_DEBOUNCE_MS = 300;

interface SearchBoxProps {
  /** What the address bar holds. */
  value: string;
  /** `replace` is true while a search is being refined, so it keeps one history entry. */
  onSearch: (search: string | undefined, replace: boolean) => void;
  label: string;
  placeholder?: string;
  maxLength?: number;
  large?: boolean;
  /** Screen-reader-only label (the page says what the box is for). */
  hideLabel?: boolean;
  className?: string;
}

/**
 * A search box that sends what is typed once typing pauses (or on Enter), and follows the address when it changes from
 * outside (back button, a link). Refining a search replaces its history entry; starting or clearing one is a step the
 * back button can undo.
 */
export function SearchBox({
  value,
  onSearch,
  label,
  placeholder,
  maxLength = 200,
  large = false,
  hideLabel = false,
  className,
}: SearchBoxProps) {
  const id = useId();
  const [text, setText] = useState(value);
  const sent = useRef(value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (value === sent.current) return;
    sent.current = value;
    clearTimeout(timer.current);
    setText(value);
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  function commit(next: string) {
    clearTimeout(timer.current);
    const search = next.trim();
    if (search === sent.current) return;
    const replace = sent.current !== "" && search !== "";
    sent.current = search;
    onSearch(search || undefined, replace);
  }

  return (
    // biome-ignore lint/a11y/useSemanticElements: jsdom, where the component tests run, does not know <search> yet
    <form
      role="search"
      className={clsx("space-y-1.5", className)}
      onSubmit={(e) => {
        e.preventDefault();
        commit(text);
      }}
    >
      <label htmlFor={id} className={hideLabel ? "sr-only" : "block text-sm font-medium text-slate-700"}>
        {label}
      </label>
      <div className="relative">
        <Search
          className={clsx(
            "pointer-events-none absolute top-1/2 -translate-y-1/2 text-slate-400",
            large ? "left-4 size-5" : "left-3 size-4",
          )}
          aria-hidden="true"
        />
        <input
          id={id}
          type="search"
          value={text}
          maxLength={maxLength}
          placeholder={placeholder}
          className={clsx(inputClasses, large ? "h-12 pl-12 text-base" : "pl-9")}
          onChange={(e) => {
            const next = e.target.value;
            setText(next);
            clearTimeout(timer.current);
            timer.current = setTimeout(() => commit(next), SEARCH_DEBOUNCE_MS);
          }}
        />
      </div>
    </form>
  );
}
