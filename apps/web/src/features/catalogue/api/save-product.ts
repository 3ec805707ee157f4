import { productKeys } from './keys';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ProductSavedResponse, productFormSchema } from '@legalmarket/contracts/catalogue';
import { uploadWithProgress } from '@/lib/http';

/** The product form's values: the contract's form schema before parsing (price as typed, digits only). */
export type ProductFormValues = z.input<ReturnType<typeof productFormSchema>>;

function toForm(v: ProductFormValues) {
  const form = new FormData();
  form.append('productName', v.productName.trim());
  form.append('productPrice', v.productPrice);
  form.append('productDescription', v.productDescription.trim());
  // Issue 20's fields: sent every time, so clearing one on the form clears it.
  form.append('area', v.area ?? '');
  form.append('whatYouGet', (v.whatYouGet ?? '').trim());
  form.append('deliveryDays', (v.deliveryDays ?? '').trim());
  form.append('included', v.included ?? '');
  form.append('youProvide', v.youProvide ?? '');
  form.append('notIncluded', v.notIncluded ?? '');
  if (v.productImage) form.append('productImage', v.productImage);
  return form;
}

/**
 * POST /api/create (no id) or PUT /api/update/{id}: multipart with the picture, progress reported.
 * The catalogue is refetched afterwards.
 */
export function useSaveProduct(onProgress?: (fraction: number) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, values }: { id?: string; values: ProductFormValues }) =>
      uploadWithProgress<ProductSavedResponse>(
        id ? `/api/update/${encodeURIComponent(id)}` : '/api/create',
        toForm(values),
        onProgress ?? (() => {}),
        {
          method: id ? 'PUT' : 'POST',
        },
      ),
    onSuccess: () => qc.invalidateQueries({ queryKey: productKeys.all() }),
  });
}
