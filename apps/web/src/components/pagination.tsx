import { useEffect, useRef } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';

/** Page numbers with previous and next (admin lists, 5 per page). */
export function Pagination({
  page,
  total,
  pageSize,
  onChange,
}: {
  page: number;
  total: number;
  pageSize: number;
  onChange: (p: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  // Previous on page 2 or Next on the last but one turns itself off: focus would stay on a disabled
  // button, or fall to the page, so it goes to the page number now current.
  const nav = useRef<HTMLElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    nav.current?.querySelector<HTMLButtonElement>('[aria-current="page"]')?.focus();
  }, [page]);
  const go = (to: number) => {
    refocus.current = to <= 1 || to >= pages;
    onChange(to);
  };
  if (pages <= 1) return null;
  const windowStart = Math.max(1, Math.min(page - 2, pages - 4));
  const numbers = Array.from({ length: Math.min(5, pages) }, (_, i) => windowStart + i);
  const btn = 'min-h-11 min-w-11 rounded-md px-3 text-sm font-semibold disabled:opacity-40';
  return (
    <nav ref={nav} aria-label="Pagination" className="mt-4 flex flex-wrap items-center justify-center gap-1">
      <button
        type="button"
        className={`${btn} hover:bg-slate-100`}
        onClick={() => go(page - 1)}
        disabled={page <= 1}
        aria-label="Previous page"
      >
        <ChevronLeft className="size-4" aria-hidden />
      </button>
      {numbers.map((n) => (
        <button
          key={n}
          type="button"
          onClick={() => onChange(n)}
          aria-current={n === page ? 'page' : undefined}
          className={`${btn} ${n === page ? 'bg-brand text-white' : 'hover:bg-slate-100'}`}
        >
          {n}
        </button>
      ))}
      <button
        type="button"
        className={`${btn} hover:bg-slate-100`}
        onClick={() => go(page + 1)}
        disabled={page >= pages}
        aria-label="Next page"
      >
        <ChevronRight className="size-4" aria-hidden />
      </button>
    </nav>
  );
}
