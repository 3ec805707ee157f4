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
/** Set when the confirmation's answer was lost and the retry refused the used code (decision 2312). */
const UNSURE_KEY = 'payoutEditUnsure';
export const payoutEditWindow = {
  open: (minutes: number, { unsure = false } = {}) => {
    sessionStorage.setItem(EDIT_KEY, String(Date.now() + minutes * 60_000));
    if (unsure) sessionStorage.setItem(UNSURE_KEY, '1');
    else sessionStorage.removeItem(UNSURE_KEY);
  },
  isOpen: () => Number(sessionStorage.getItem(EDIT_KEY) ?? 0) > Date.now(),
  /** Opened without knowing that the code was confirmed: the server will tell on Update. */
  isUnsure: () => sessionStorage.getItem(UNSURE_KEY) === '1',
  close: () => {
    sessionStorage.removeItem(EDIT_KEY);
    sessionStorage.removeItem(UNSURE_KEY);
  },
};
