import { productKeys } from './keys';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProductResponse } from '@legalmarket/contracts/catalogue';
import { api, isTimedOut, takeArrived } from '@/lib/http';

/** GET /product-api/product/{id}: the product itself. */
const productQueryOptions = (id: string) =>
  queryOptions({
    queryKey: productKeys.product(id),
    queryFn: ({ signal }) => api<ProductResponse>(`/product-api/product/${encodeURIComponent(id)}`, { signal }),
    // Asked for while /pre-cart/{id} loaded (app/page-data.ts): the page renders with it at once.
    initialData: () => takeArrived<ProductResponse>(`/product-api/product/${encodeURIComponent(id)}`),
    staleTime: 60_000,
    // A 5xx is asked again here too, but never a call already given up after 30 s (decision 2306).
    retry: (count, err) => (err as { status?: number }).status !== 404 && count < 2 && !isTimedOut(err),
  });

export const useProduct = (id: string) => useQuery(productQueryOptions(id));
