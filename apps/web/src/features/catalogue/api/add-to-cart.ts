import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/http';

export interface AddToCartBody {
  productId: string;
  quantity: number;
  detail?: string;
  file?: string;
  fileName?: string;
}

/** POST /api/cart (the company's server cart; the cart feature owns the API). */
export function useAddToCart() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AddToCartBody) =>
      api<{ status: string; message: string }>('/api/cart', { method: 'POST', body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['cart'] }),
  });
}
