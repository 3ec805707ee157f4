import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SettlementAccountResponse, SettlementAccountInput } from '@legalmarket/contracts/admin';
import { api } from '@/lib/http';
import { adminKeys } from './keys';

const getSettlementAccount = () => api<SettlementAccountResponse>('/api/admin/settlement-account');
const saveSettlementAccount = (body: SettlementAccountInput) =>
  api<SettlementAccountResponse>('/api/admin/settlement-account', { method: 'PUT', body });

export const useSettlementAccount = () => useQuery({ queryKey: adminKeys.settlement(), queryFn: getSettlementAccount });

export function useSaveSettlementAccount() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: saveSettlementAccount,
    onSuccess: (res) => {
      qc.setQueryData(adminKeys.settlement(), res);
      void qc.invalidateQueries({ queryKey: adminKeys.dashboard() });
    },
  });
}
