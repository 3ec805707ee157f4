/**
 * The reference this tab last opened the payment dialog with, until the server has answered for it
 * (decision 2242). A charge whose confirmation was lost leaves it here, so the next Purchase asks the
 * server to verify it with the provider before it opens the dialog, and charges no card twice.
 * Per signed-in user, in sessionStorage: the tab survives a reload, another account never reads it.
 */
const key = (userId: string) => `checkout:${userId}:opened`;

export function openedReference(userId: string): string | null {
  try {
    return sessionStorage.getItem(key(userId));
  } catch {
    return null;
  }
}

export function rememberOpened(userId: string, reference: string) {
  try {
    sessionStorage.setItem(key(userId), reference);
  } catch {
    // Storage refused (private mode): the payment still works, only the lost-answer check is skipped.
  }
}

/** Forgets `reference` once the server answered for it (a newer one opened since stays). */
export function forgetOpened(userId: string, reference: string) {
  try {
    if (sessionStorage.getItem(key(userId)) === reference) sessionStorage.removeItem(key(userId));
  } catch {
    // As above.
  }
}
