import { cartKeys } from './keys';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/http';
import type { CartView } from '@legalmarket/contracts/commerce';

/** DELETE /api/cart/{productId}; the line leaves the list at once (spec: removing updates the cart locally). */
export function useRemoveFromCart() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (productId: string) =>
      api<{ message: string }>(`/api/cart/${encodeURIComponent(productId)}`, { method: 'DELETE' }),
    onSuccess: (_res, productId) => {
      qc.setQueryData<CartView>(cartKeys.cart(), (old) => {
        if (!old) return old;
        const products = old.products.filter((p) => p.productId !== productId);
        return { products, bill: products.reduce((s, p) => s + p.price * p.quantity, 0) };
      });
      void qc.invalidateQueries({ queryKey: cartKeys.cart() });
    },
  });
}
