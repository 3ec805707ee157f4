import { useEffect, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { Product, ProductsResponse } from '@legalmarket/contracts/catalogue';
import { api, takeArrived } from '@/lib/http';
import { Naira } from './feedback';

/** The live catalogue (GET /product-api/products), shared by the products page, product page and cart. */
const ALL_PRODUCTS = '/product-api/products';

/**
 * The query key of a catalogue GET: the whole list under ['products'] (shared with the carousel), a
 * filtered one beside it, so invalidating ['products'] reaches both.
 */
export const productsListKey = (url: string): readonly unknown[] =>
  url === ALL_PRODUCTS ? ['products'] : ['products', { list: url }];

/** GET /product-api/products, or a filtered list (`url` from src/early.ts's productsDataUrl). */
export const productsQueryOptions = (url: string = ALL_PRODUCTS) =>
  queryOptions({
    queryKey: productsListKey(url),
    queryFn: ({ signal }) => api<ProductsResponse>(url, { signal }),
    // Asked for while /products loaded (app/page-data.ts): the page renders with it at once.
    initialData: () => takeArrived<ProductsResponse>(url),
    select: (res) => res.products,
    staleTime: 60_000,
  });

/** Slide dots shown at once. */
export const MAX_DOTS = 7;

/** Columns per slide by screen width: 5, 4, 3, 2, 1 (spec screen 10). */
const BREAKPOINTS: Array<[query: string, columns: number]> = [
  ['(min-width: 1280px)', 5],
  ['(min-width: 1024px)', 4],
  ['(min-width: 768px)', 3],
  ['(min-width: 480px)', 2],
];

function currentColumns() {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return 5;
  for (const [q, n] of BREAKPOINTS) if (window.matchMedia(q).matches) return n;
  return 1;
}

function useColumns() {
  const [columns, setColumns] = useState(currentColumns);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const lists = BREAKPOINTS.map(([q]) => window.matchMedia(q));
    const update = () => setColumns(currentColumns());
    lists.forEach((l) => l.addEventListener('change', update));
    return () => lists.forEach((l) => l.removeEventListener('change', update));
  }, []);
  return columns;
}

/** Fisher-Yates. */
export function shuffle<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

interface ProductCarouselProps {
  /** Products not to offer (the one on the page, the ones already in the cart). */
  excludeIds?: readonly string[];
  title?: string;
}

/**
 * "You may also like": other products of the catalogue, shuffled once per visit, up to 5 per slide
 * (columns 5, 4, 3, 2, 1 as the screen narrows), with previous/next buttons and slide dots.
 */
export function ProductCarousel({ excludeIds = [], title = 'You may also like' }: ProductCarouselProps) {
  const headingId = useId();
  const { data } = useQuery(productsQueryOptions());
  const columns = useColumns();
  const [seed] = useState(() => Math.random());
  const excluded = excludeIds.join('|');
  const items = useMemo(() => {
    const skip = new Set(excluded.split('|'));
    // A seeded generator keeps the order stable across re-renders of this visit.
    let s = Math.floor(seed * 2 ** 31) || 1;
    const random = () => {
      s = (s * 48271) % 2147483647;
      return s / 2147483647;
    };
    return shuffle(
      (data ?? []).filter((p) => !skip.has(p._id)),
      random,
    );
  }, [data, excluded, seed]);
  const slides = useMemo(() => {
    const out: Product[][] = [];
    for (let i = 0; i < items.length; i += columns) out.push(items.slice(i, i + columns));
    return out;
  }, [items, columns]);
  const [index, setIndex] = useState(0);
  const current = Math.min(index, Math.max(0, slides.length - 1));

  if (slides.length === 0) return null;
  const go = (i: number) => setIndex((i + slides.length) % slides.length);
  // At most MAX_DOTS dots, a window around the current slide: with one column on a phone, 200 products
  // made 199 dots, a row four screens wide that widened the whole page on mobile browsers.
  const firstDot = Math.max(0, Math.min(current - Math.floor(MAX_DOTS / 2), slides.length - MAX_DOTS));
  const dots = slides.slice(firstDot, firstDot + MAX_DOTS).map((_, k) => firstDot + k);

  return (
    <section aria-roledescription="carousel" aria-labelledby={headingId} className="mt-12">
      <div className="mb-4 flex items-center justify-between gap-2">
        <h2 id={headingId} className="heading-section text-ink">
          {title}
        </h2>
        {slides.length > 1 && (
          <div className="flex gap-1">
            <button
              type="button"
              onClick={() => go(current - 1)}
              aria-label="Previous products"
              className="flex size-11 items-center justify-center rounded-full border border-slate-300 hover:bg-slate-100"
            >
              <ChevronLeft aria-hidden className="size-5" />
            </button>
            <button
              type="button"
              onClick={() => go(current + 1)}
              aria-label="Next products"
              className="flex size-11 items-center justify-center rounded-full border border-slate-300 hover:bg-slate-100"
            >
              <ChevronRight aria-hidden className="size-5" />
            </button>
          </div>
        )}
      </div>
      <div
        role="group"
        aria-roledescription="slide"
        aria-label={`${current + 1} of ${slides.length}`}
        aria-live="polite"
        className="grid gap-4"
        style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}
      >
        {slides[current].map((p) => (
          <Link
            key={p._id}
            to={`/pre-cart/${p._id}`}
            className="group flex flex-col overflow-hidden rounded-lg border border-slate-200 bg-white hover:shadow-md focus-visible:outline-2 focus-visible:outline-accent"
          >
            <img
              src={p.productImage}
              alt=""
              loading="lazy"
              width={320}
              height={200}
              className="aspect-[16/10] w-full bg-sand object-cover"
            />
            <span className="flex flex-1 flex-col gap-1 p-3">
              <span className="font-semibold text-ink group-hover:text-brand">{p.productName}</span>
              <span className="text-sm text-slate-700">
                <Naira amount={p.productPrice} />
              </span>
            </span>
          </Link>
        ))}
      </div>
      {slides.length > 1 && (
        <div className="mt-3 flex justify-center gap-1" role="group" aria-label="Choose a slide">
          {dots.map((i) => (
            <button
              key={i}
              type="button"
              onClick={() => go(i)}
              aria-label={`Slide ${i + 1}`}
              aria-current={i === current || undefined}
              className="flex size-8 items-center justify-center"
            >
              <span className={`block size-2.5 rounded-full ${i === current ? 'bg-brand' : 'bg-slate-300'}`} />
            </button>
          ))}
        </div>
      )}
    </section>
  );
}
