import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CompaniesResponse } from '@legalmarket/contracts/admin';
import { api } from '@/lib/http';
import { adminKeys, PAGE_SIZE } from './keys';

const getCompanies = (page: number) => api<CompaniesResponse>('/api/companys', { query: { page, limit: PAGE_SIZE } });

export const useCompanies = (page: number) =>
  useQuery({
    queryKey: adminKeys.companies(page),
    queryFn: () => getCompanies(page),
    placeholderData: keepPreviousData,
  });
