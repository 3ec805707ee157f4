import { companyKeys } from './keys';
import { useQuery } from '@tanstack/react-query';
import type { OrderView } from '@legalmarket/contracts/commerce';
import { api } from '@/lib/http';

/** GET /api/orders: the company's payments with status, amount, reference and date. */
export const useOrders = () =>
  useQuery({
    queryKey: companyKeys.orders(),
    queryFn: ({ signal }) => api<{ data: OrderView[] }>('/api/orders', { signal }).then((r) => r.data),
  });
