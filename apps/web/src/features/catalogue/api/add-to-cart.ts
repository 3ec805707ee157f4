import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddToCartInput, CartChangeAnswer } from '@legalmarket/contracts';
import { api } from '@/lib/http';

/** POST /api/cart (the company's server cart; the cart feature owns the API). */
export function useAddToCart() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AddToCartInput) => api<CartChangeAnswer>('/api/cart', { method: 'POST', body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['cart'] }),
  });
}
