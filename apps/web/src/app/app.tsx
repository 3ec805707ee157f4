import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { setUnauthorizedHandler } from '@/lib/http';
import { clearData } from '@/lib/data-cache';
import { paths } from '@/lib/paths';
import { AppRoutes } from './router';

/**
 * Pages of e-mailed links, which work signed out. What such a mail tells of (two-factor turned on by
 * someone else, a change of address) ended this browser's session, so the bar's own requests answer
 * 401 there: sending the owner to /login would take the page away before its button is pressed
 * (decision 2225). The dead session is dropped all the same.
 */
const LINK_PAGES: readonly string[] = [
  paths.confirmEmail(),
  paths.confirmEmailChange(),
  paths.undoEmailChange(),
  paths.twoFactorNotMe(),
];

/** On 401 the stored session is cleared (lib/http) and the user goes to /login without a reload. */
function UnauthorizedBridge() {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  useEffect(() => {
    const stay = LINK_PAGES.includes(pathname);
    setUnauthorizedHandler((userId) => {
      clearData();
      // The page goes with it: the same user signing in again comes back to it and the draft kept
      // there (decision 2240; read by features/accounts/login-page.tsx).
      if (!stay) navigate(paths.login(), { state: { back: pathname + search, backFor: userId } });
    });
  }, [navigate, pathname, search]);
  return null;
}

/**
 * The app inside its router, the same tree in the browser (src/main.tsx) and on the server
 * (src/entry-server.tsx): useId's ids follow the tree's shape, so a server tree of another shape gives
 * other ids and the hydrated page keeps the server's (a dialog named by a title it cannot find).
 */
export function App() {
  return (
    <>
      <UnauthorizedBridge />
      <AppRoutes />
    </>
  );
}
