import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { setUnauthorizedHandler } from '@/lib/http';
import { clearData } from '@/lib/data-cache';
import { AppRoutes } from './router';

/** On 401 the stored session is cleared (lib/http) and the user goes to /login without a reload. */
function UnauthorizedBridge() {
  const navigate = useNavigate();
  useEffect(() => {
    setUnauthorizedHandler(() => {
      clearData();
      navigate('/login');
    });
  }, [navigate]);
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
