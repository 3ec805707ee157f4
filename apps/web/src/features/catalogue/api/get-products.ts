import { useQuery } from '@tanstack/react-query';
import { productsQueryOptions } from '@/components/product-carousel';

/** GET /product-api/products (filtered when `url` carries filters): the live catalogue, in naira. */
export const useProducts = (url?: string) => useQuery(productsQueryOptions(url));
