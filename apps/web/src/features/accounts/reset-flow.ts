/**
 * Each password-reset step unlocks the next route (spec section 4): the flags live in
 * sessionStorage, so a direct visit without the previous step redirects back.
 */
const EMAIL = 'resetEmailSubmitted';
const GRANT = 'resetGrant';

export const resetFlow = {
  emailSubmitted: (email: string) => sessionStorage.setItem(EMAIL, email.toLowerCase()),
  canEnterCode: (email: string) => sessionStorage.getItem(EMAIL) === email.toLowerCase(),
  codeVerified: (token: string) => sessionStorage.setItem(GRANT, token),
  canSetPassword: (token: string) => sessionStorage.getItem(GRANT) === token,
  done: () => {
    sessionStorage.removeItem(EMAIL);
    sessionStorage.removeItem(GRANT);
  },
};
