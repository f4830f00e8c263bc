import { clsx } from "clsx";
import { UserRound } from "lucide-react";
import { useState } from "react";

const sizes = { sm: "size-8", md: "size-9", lg: "size-20" };

/** A member's picture, or a neutral icon when there is none (or it fails to load). */
export function Avatar({
  url,
  size = "md",
  className,
}: {
  url: string | null;
  size?: keyof typeof sizes;
  className?: string;
}) {
  const [broken, setBroken] = useState<string | null>(null);
  if (url && broken !== url) {
    return (
      <img
        src={url}
        alt=""
        onError={() => setBroken(url)}
        className={clsx(sizes[size], "shrink-0 rounded-full object-cover ring-1 ring-slate-200", className)}
      />
    );
  }
  return (
    <span
      className={clsx(
        sizes[size],
        "flex shrink-0 items-center justify-center rounded-full bg-indigo-100 text-indigo-700",
        className,
      )}
    >
      <UserRound className={size === "lg" ? "size-10" : "size-5"} aria-hidden="true" />
    </span>
  );
}
