import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddPaymentDetailsResponse, PayoutDetailsInput } from '@legalmarket/contracts/lawyers';
import { api } from '@/lib/http';
import { lawyerKeys } from './keys';

const addPaymentDetails = (body: PayoutDetailsInput) =>
  api<AddPaymentDetailsResponse>('/api/add-payment-details', { method: 'POST', body });

export function useAddPaymentDetails() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: addPaymentDetails,
    onSuccess: () => qc.invalidateQueries({ queryKey: lawyerKeys.paymentDetails() }),
  });
}
