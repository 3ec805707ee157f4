import { useQuery } from '@tanstack/react-query';
import type { CompanyRefund, CompanyRefundsResponse } from '@legalmarket/contracts/money';
import { api } from '@/lib/http';
import { companyKeys } from './keys';

/** GET /api/refunds: the company's completed refunds, each with a credit note. */
export const useRefunds = () =>
  useQuery({
    queryKey: companyKeys.refunds(),
    queryFn: ({ signal }) =>
      api<CompanyRefundsResponse>('/api/refunds', { signal }).then((r): CompanyRefund[] => r.refunds),
  });
