import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PaymentsResponse, PaymentsQuery } from '@legalmarket/contracts/admin';
import { api } from '@/lib/http';
import { adminKeys } from './keys';

const getPayments = (q: PaymentsQuery) =>
  api<PaymentsResponse>('/api/admin/payments', { query: { ...q } as Record<string, string | number | undefined> });

export const usePayments = (q: PaymentsQuery) =>
  useQuery({ queryKey: adminKeys.payments(q), queryFn: () => getPayments(q), placeholderData: keepPreviousData });
