import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A list's tab and page kept in the address (?tab=, ?page=): a reload, or Back from a job or profile
 * page, shows the tab and page the user was on instead of the first tab's first page.
 */
export function useListParams<T extends string>(tabs: readonly T[], fallback: T) {
  const [search, setSearch] = useSearchParams();
  const tab = tabs.find((t) => t === search.get('tab')) ?? fallback;
  const page = Math.max(1, Math.floor(Number(search.get('page'))) || 1);
  const setPage = useCallback(
    (p: number) =>
      setSearch(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (p > 1) next.set('page', String(p));
          else next.delete('page');
          return next;
        },
        { replace: true },
      ),
    [setSearch],
  );
  /** Another tab starts at its first page. */
  const setTab = useCallback(
    (t: T) =>
      setSearch(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (t === fallback) next.delete('tab');
          else next.set('tab', t);
          next.delete('page');
          return next;
        },
        { replace: true },
      ),
    [setSearch, fallback],
  );
  return { tab, page, setTab, setPage };
}
