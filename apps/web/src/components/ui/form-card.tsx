import type { ComponentProps } from "react";

/** A settings form on its own card (the workspace's and the assistant's settings); the fields check themselves. */
export function FormCard(props: Omit<ComponentProps<"form">, "className" | "noValidate">) {
  return <form noValidate className="space-y-5 rounded-xl border border-slate-200 bg-white p-5 shadow-sm" {...props} />;
}
