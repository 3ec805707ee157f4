import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddToCartInput, CartChangeResponse } from '@legalmarket/contracts';
import { IDEMPOTENCY_KEY_HEADER } from '@legalmarket/contracts/constants';
import { api } from '@/lib/http';

/**
 * POST /api/cart (the company's server cart; the cart feature owns the API). Under `key` the API makes
 * the addition once, however often it is sent (decision 2240).
 */
export function useAddToCart() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ key, ...body }: AddToCartInput & { key?: string }) =>
      api<CartChangeResponse>('/api/cart', {
        method: 'POST',
        body,
        headers: key ? { [IDEMPOTENCY_KEY_HEADER]: key } : undefined,
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['cart'] }),
  });
}
