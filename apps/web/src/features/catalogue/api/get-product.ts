import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProductAnswer } from '@legalmarket/contracts/catalogue';
import { api } from '@/lib/http';

/** GET /product-api/product/{id}. */
export const productQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['products', id],
    queryFn: ({ signal }) => api<ProductAnswer>(`/product-api/product/${encodeURIComponent(id)}`, { signal }),
    select: (res) => res.data.product,
    staleTime: 60_000,
    retry: (count, err) => (err as { status?: number }).status !== 404 && count < 2,
  });

export const useProduct = (id: string) => useQuery(productQueryOptions(id));
