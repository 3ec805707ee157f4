import { useQuery } from '@tanstack/react-query';
import type { GetPaymentDetailsResponse } from '@legalmarket/contracts/lawyers';
import { api } from '@/lib/http';
import { lawyerKeys } from './keys';

const getPaymentDetails = () => api<GetPaymentDetailsResponse>('/api/get-payment-details');

export const usePaymentDetails = () => useQuery({ queryKey: lawyerKeys.paymentDetails(), queryFn: getPaymentDetails });
