import { useQuery } from '@tanstack/react-query';
import type { EarningsAnswer } from '@legalmarket/contracts/lawyers';
import { api } from '@/lib/http';
import { lawyerKeys } from './keys';

export const getEarnings = () => api<EarningsAnswer>('/job-api/lawyer/earnings');

export const useEarnings = () => useQuery({ queryKey: lawyerKeys.earnings(), queryFn: getEarnings });
