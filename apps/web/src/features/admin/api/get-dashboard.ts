import { useQuery } from '@tanstack/react-query';
import type { DashboardResponse } from '@legalmarket/contracts/admin';
import { api } from '@/lib/http';
import { adminKeys } from './keys';

const getDashboard = () => api<DashboardResponse>('/api/admin/dashboard');

export const useDashboard = () =>
  useQuery({ queryKey: adminKeys.dashboard(), queryFn: getDashboard, staleTime: 10_000 });
