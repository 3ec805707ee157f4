import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EditPaymentDetailsResponse, PayoutDetailsInput } from '@legalmarket/contracts/lawyers';
import { api } from '@/lib/http';
import { lawyerKeys } from './keys';

/** Needs a code confirmed by this session in the last 10 minutes (docs/decisions/0300). */
const editPaymentDetails = (body: PayoutDetailsInput) =>
  api<EditPaymentDetailsResponse>('/api/edit-payment-details', { method: 'PATCH', body });

export function useEditPaymentDetails() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: editPaymentDetails,
    onSettled: () => qc.invalidateQueries({ queryKey: lawyerKeys.paymentDetails() }),
  });
}

/** The browser's note that a code was confirmed, so the Update form opens (the server decides anyway). */
const EDIT_KEY = 'payoutEditUntil';
export const payoutEditWindow = {
  open: (minutes: number) => sessionStorage.setItem(EDIT_KEY, String(Date.now() + minutes * 60_000)),
  isOpen: () => Number(sessionStorage.getItem(EDIT_KEY) ?? 0) > Date.now(),
  close: () => sessionStorage.removeItem(EDIT_KEY),
};
