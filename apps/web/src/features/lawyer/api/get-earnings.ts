import { useQuery } from '@tanstack/react-query';
import type { EarningsResponse } from '@legalmarket/contracts/money';
import { api } from '@/lib/http';
import { lawyerKeys } from './keys';

const getEarnings = () => api<EarningsResponse>('/job-api/lawyer/earnings');

export const useEarnings = () => useQuery({ queryKey: lawyerKeys.earnings(), queryFn: getEarnings });
