import { act, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, vi } from 'vitest';
import type { JobViewResponse } from '@legalmarket/contracts/jobs';
import { jobFixture } from './job-fixture';

/** A lawyer as the admin's job rows name them. */
export const adminRowLawyer = (id: string, name: string) => ({ _id: id, name, officialEmail: '', phoneNumber: '' });

/**
 * A pending Share Transfer job (₦50,000) at `stage`, held by `lawyer`: the row the admin's Mark as
 * Completed tests open (decisions 2322, 2340).
 */
export const shareTransferRow = (
  id: string,
  lawyer: ReturnType<typeof adminRowLawyer>,
  stage: 'in_progress' | 'changes_requested',
): JobViewResponse =>
  jobFixture({
    _id: id,
    status: 'pending',
    stage,
    productId: {
      _id: 'p',
      productName: 'Share Transfer',
      productImage: '/uploads/share.png',
      productPrice: 50_000,
      productDescription: '',
    },
    assignedTo: [lawyer],
  });

/** The 409 when the commission changed between the confirmation and the click (20 % shown, 30 % set). */
export const COMMISSION_CHANGED =
  'This job now pays Ada Lawyer ₦35,000, not ₦40,000: the commission changed after you opened it. Check the job and mark it completed again.';

/**
 * An admin presses Mark as Completed, twice, before the answer naming whom it pays (`payee`) has come:
 * nothing is sent and the button says why; once `release` lets the answer through, one press sends.
 */
export async function pressBeforePayee(dialog: HTMLElement, payee: string, release: () => void, sent: unknown[]) {
  const confirm = within(dialog).getByRole('button', { name: 'Mark as Completed' });
  expect(confirm).toHaveAttribute('aria-disabled', 'true');
  expect(confirm).toHaveAccessibleDescription('Loading whom this completion pays and how much…');
  await userEvent.click(confirm);
  await userEvent.click(confirm);
  expect(sent).toEqual([]);
  await act(async () => release());
  await within(dialog).findByText(payee);
  expect(confirm).not.toHaveAttribute('aria-disabled');
  await userEvent.click(confirm);
  await vi.waitFor(() => expect(sent).toHaveLength(1));
}
