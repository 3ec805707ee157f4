import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CartChangeResponse, CartLine } from '@legalmarket/contracts/commerce';
import { api } from '@/lib/http';
import { cartKeys } from './keys';

/** POST /api/cart with a line just removed, as it was: quantity, brief and document (the cart's Undo). */
export function useRestoreLine() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (line: CartLine) =>
      api<CartChangeResponse>('/api/cart', {
        method: 'POST',
        body: {
          productId: line.productId,
          quantity: line.quantity,
          ...(line.detail ? { detail: line.detail } : {}),
          ...(line.file ? { file: line.file, fileName: line.fileName ?? undefined } : {}),
        },
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: cartKeys.cart() }),
  });
}
