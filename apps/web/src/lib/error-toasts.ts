/**
 * The error toasts on screen. They are about the screen they were raised on, so leaving it dismisses them. This
 * module does not import the toast library, so the router (in every page's first download) stays without it.
 */
const shown = new Map<string | number, (id: string | number) => void>();

export function rememberErrorToast(id: string | number, dismiss: (id: string | number) => void): void {
  shown.set(id, dismiss);
}

export function forgetErrorToast(id: string | number): void {
  shown.delete(id);
}

/** Dismisses every error toast still shown (success toasts stay: they often announce the page one lands on). */
export function dismissErrorToasts(): void {
  for (const [id, dismiss] of shown) dismiss(id);
  shown.clear();
}
