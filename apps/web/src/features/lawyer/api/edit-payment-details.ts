import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccountDetails, EditPaymentDetailsResponse, PayoutDetailsInput } from '@legalmarket/contracts/lawyers';
import { api } from '@/lib/http';
import { lawyerKeys } from './keys';

/** Needs a code confirmed by this session in the last 10 minutes (docs/decisions/0300). */
const editPaymentDetails = (body: PayoutDetailsInput) =>
  api<EditPaymentDetailsResponse>('/api/edit-payment-details', { method: 'PATCH', body });

export function useEditPaymentDetails() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: editPaymentDetails,
    onSettled: () => qc.invalidateQueries({ queryKey: lawyerKeys.paymentDetails() }),
  });
}

/** The browser's note that a code was confirmed, so the Update form opens (the server decides anyway). */
const EDIT_KEY = 'payoutEditUntil';
/** Set when the confirmation's answer was lost and the retry refused the used code (decision 2312). */
const UNSURE_KEY = 'payoutEditUnsure';
/** The details of each Update in this window whose answer was lost: the server may have saved them (2312). */
const LOST_KEY = 'payoutEditLost';
const lostUpdates = (): AccountDetails[] => {
  try {
    const v: unknown = JSON.parse(sessionStorage.getItem(LOST_KEY) ?? '[]');
    return Array.isArray(v) ? (v as AccountDetails[]) : [];
  } catch {
    return [];
  }
};
const sameText = (a: unknown, b: unknown) => String(a ?? '').trim() === String(b ?? '').trim();
export const payoutEditWindow = {
  open: (minutes: number, { unsure = false } = {}) => {
    sessionStorage.setItem(EDIT_KEY, String(Date.now() + minutes * 60_000));
    // A new code is a new window: an Update lost in an earlier one was answered by its own code.
    sessionStorage.removeItem(LOST_KEY);
    if (unsure) sessionStorage.setItem(UNSURE_KEY, '1');
    else sessionStorage.removeItem(UNSURE_KEY);
  },
  isOpen: () => Number(sessionStorage.getItem(EDIT_KEY) ?? 0) > Date.now(),
  /** Opened without knowing that the code was confirmed: the server will tell on Update. */
  isUnsure: () => sessionStorage.getItem(UNSURE_KEY) === '1',
  /** An Update went out and its answer was lost (dropped, timed out, or a gateway's 502/504). */
  noteLostUpdate: (sent: PayoutDetailsInput) => {
    const { accountNumber, accountName, bank } = sent;
    const entry = { accountNumber: String(accountNumber), accountName: String(accountName), bank: String(bank) };
    sessionStorage.setItem(LOST_KEY, JSON.stringify([...lostUpdates(), entry]));
  },
  /** Whether an Update in this window may have been saved although its answer never came. */
  hadLostUpdate: () => lostUpdates().length > 0,
  /** Whether `held` (read after the lost answer) is what one of the lost Updates sent. */
  lostUpdateSaved: (held: AccountDetails | undefined) =>
    !!held &&
    lostUpdates().some(
      (s) =>
        sameText(s.accountNumber, held.accountNumber) &&
        sameText(s.accountName, held.accountName) &&
        sameText(s.bank, held.bank),
    ),
  close: () => {
    sessionStorage.removeItem(EDIT_KEY);
    sessionStorage.removeItem(UNSURE_KEY);
    sessionStorage.removeItem(LOST_KEY);
  },
};
