import { useQuery } from '@tanstack/react-query';
import { productsQueryOptions } from '@/components/product-carousel';

/** GET /product-api/products: the live catalogue, in naira. */
export const useProducts = () => useQuery(productsQueryOptions());
