import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { LawyersResponse } from '@legalmarket/contracts/admin';
import { api } from '@/lib/http';
import { adminKeys, PAGE_SIZE } from './keys';

const getLawyers = (verified: boolean, page: number) =>
  api<LawyersResponse>(verified ? '/api/verifiedlawyers' : '/api/unverifiedlawyers', {
    query: { page, limit: PAGE_SIZE },
  });

export const useLawyers = (verified: boolean, page: number) =>
  useQuery({
    queryKey: adminKeys.lawyers(verified, page),
    queryFn: () => getLawyers(verified, page),
    placeholderData: keepPreviousData,
  });
