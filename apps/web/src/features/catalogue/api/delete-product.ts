import { productKeys } from './keys';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProductsResponse } from '@legalmarket/contracts/catalogue';
import { api } from '@/lib/http';

/** DELETE /api/delete/{id}: the product leaves the list at once. */
export function useDeleteProduct() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<{ message: string }>(`/api/delete/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: (_res, id) => {
      qc.setQueryData<ProductsResponse>(['products'], (old) =>
        old ? { ...old, results: old.results - 1, products: old.products.filter((p) => p._id !== id) } : old,
      );
      void qc.invalidateQueries({ queryKey: productKeys.all() });
    },
  });
}
