import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/http';
import type { CartView } from '@legalmarket/contracts/commerce';
import { cartKeys } from './keys';

/** POST /api/clear-cart. */
export function useClearCart() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ message: string }>('/api/clear-cart', { method: 'POST' }),
    onSuccess: () => {
      qc.setQueryData<CartView>(cartKeys.cart(), { products: [], bill: 0 });
    },
  });
}
