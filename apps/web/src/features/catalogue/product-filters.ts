import { areaNamed } from '@legalmarket/contracts/constants';
import { PRODUCT_FILTERS, productsDataUrl } from '@/early';

/** The catalogue's search and filters as /products keeps them in its address (decision 2010). */
export interface ProductFilters {
  q: string;
  /** One of EXPERTISE, or '' for every area. */
  area: string;
  /** Naira, digits only, or ''. */
  min: string;
  max: string;
}

export const NO_FILTERS: ProductFilters = { q: '', area: '', min: '', max: '' };

/**
 * The filters an address holds, as the form shows them: an older area name (a landing page link) as
 * the area it names; an unknown one is kept, so the API names the problem.
 */
export function readFilters(search: string | URLSearchParams): ProductFilters {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const area = params.get('area')?.trim() ?? '';
  return {
    q: params.get('q') ?? '',
    area: areaNamed(area) ?? area,
    min: params.get('min')?.trim() ?? '',
    max: params.get('max')?.trim() ?? '',
  };
}

/** The address query for `filters` ('' for none): blank ones left out, prices kept to their digits. */
export function filtersToSearch(filters: ProductFilters): string {
  const params = new URLSearchParams();
  const clean: ProductFilters = {
    q: filters.q.trim().replace(/\s+/g, ' '),
    area: filters.area,
    min: filters.min.replace(/\D/g, ''),
    max: filters.max.replace(/\D/g, ''),
  };
  for (const name of PRODUCT_FILTERS) if (clean[name]) params.set(name, clean[name]);
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** True when any filter is set. */
export const isFiltered = (filters: ProductFilters) => PRODUCT_FILTERS.some((name) => filters[name].trim() !== '');

/** The catalogue GET for the address `search`, as the server's render and src/early.ts ask for it. */
export const productsUrlOf = (search: string) => productsDataUrl(search);
