import { useEffect } from 'react';
import { PAGE_SIZE } from './api/keys';

/** When the current page empties (an item left the list), step back to the last page that has items. */
export function useClampPage(page: number, setPage: (p: number) => void, data?: { total: number; results: number }) {
  useEffect(() => {
    if (data && data.results === 0 && page > 1) setPage(Math.max(1, Math.ceil(data.total / PAGE_SIZE)));
  }, [data, page, setPage]);
}
