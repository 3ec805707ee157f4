import type { PayoutView } from '@legalmarket/contracts/payouts';

/** A lawyer's withdrawal waiting for approval, as the admin's payouts list answers it; tests pass what they look at. */
export const payoutFixture = (id: string, over: Partial<PayoutView> = {}): PayoutView => ({
  _id: id,
  lawyerId: `l-${id}`,
  lawyerName: `Lawyer ${id}`,
  amount: 10_000.25,
  status: 'requested',
  bank: 'Zenith Bank',
  accountNumber: '•••• 6789',
  accountName: 'CHIDI OKEKE',
  failure: null,
  createdAt: '2026-11-21T10:00:00.000Z',
  approvedAt: null,
  settledAt: null,
  detailsAddedAt: '2020-01-01T10:00:00.000Z',
  ...over,
});
