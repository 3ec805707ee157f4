import { useQuery } from '@tanstack/react-query';
import type { LawyerPayoutsResponse } from '@legalmarket/contracts/payouts';
import { api } from '@/lib/http';
import { lawyerKeys } from './keys';

const getPayouts = () => api<LawyerPayoutsResponse>('/api/lawyer/payouts');

export const usePayouts = () => useQuery({ queryKey: lawyerKeys.payouts(), queryFn: getPayouts });
