import { useEffect } from 'react';
import { useNavigate } from 'react-router';

/** Goes to `to` after `ms` while `active`; leaving the page cancels it. */
export function useRedirectAfter(active: boolean, to: string | null, ms: number) {
  const navigate = useNavigate();
  useEffect(() => {
    if (!active || !to) return;
    const t = setTimeout(() => navigate(to), ms);
    return () => clearTimeout(t);
  }, [active, to, ms, navigate]);
}
