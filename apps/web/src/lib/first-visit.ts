/**
 * Whether the signed-in person has just created their account (registered, or accepted an invitation) in this tab: the
 * dashboard then welcomes them rather than welcoming them back.
 */
const KEY = "cove.newcomer";

export function markNewcomer(userId: string): void {
  try {
    sessionStorage.setItem(KEY, userId);
  } catch {
    // Storage refused (private mode, quota): the greeting is all that is lost.
  }
}

export function isNewcomer(userId: string): boolean {
  try {
    return sessionStorage.getItem(KEY) === userId;
  } catch {
    return false;
  }
}
