import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminPayoutsResponse } from '@legalmarket/contracts/payouts';
import { heldFetch, type Holds } from '@/test/held-fetch';
import { payoutFixture } from '@/test/payout-fixture';
import { jsonFetch, renderPage, testQueryClient } from '@/test/render';
import { setSession } from '@/lib/session';
import { adminKeys } from './api/keys';
import PayoutsPage from './payouts-page';

const payout = payoutFixture;

/** The list answered with `answer`, and a rejection of p1 taken. */
const rejectionRoutes = (answer: AdminPayoutsResponse) => ({
  'GET /api/admin/payouts': () => ({ body: answer }),
  'POST /api/admin/payouts/p1/reject': () => ({
    body: { status: 'success', message: 'The payout was rejected.', payout: payout('p1') },
  }),
});

/** Holds each rejection on its way, as a slow phone network would. */
const rejecting: Holds = ({ method }) => method === 'POST';

/** One payout, p1, waiting for approval. */
const oneWaiting = (): AdminPayoutsResponse => ({
  status: 'success',
  waitingTotal: 10_000.25,
  payouts: [payout('p1')],
});

/** Signs the admin in and shows the page with `answer` already read; `fetch` answers what it sends. */
function showPayouts(answer: AdminPayoutsResponse, fetch: typeof globalThis.fetch) {
  setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
  const client = testQueryClient();
  client.setQueryData(adminKeys.payouts(), answer);
  vi.stubGlobal('fetch', fetch);
  return renderPage(<PayoutsPage />, { client });
}

describe('/admin/payouts', () => {
  it('approves the selected payouts in one batch after a confirmation, and lists recent ones', async () => {
    const answer: AdminPayoutsResponse = {
      status: 'success',
      waitingTotal: 30_000.75,
      payouts: [
        payout('p1'),
        payout('p2'),
        payout('p3'),
        payout('p4', {
          status: 'failed',
          failure: 'Beneficiary account is dormant',
          approvedAt: '2026-11-21T11:00:00.000Z',
        }),
      ],
    };
    const onApprove = vi.fn((ids: string[]) => ({
      body: { status: 'success', message: `${ids.length} payouts were approved and sent to the bank.`, payouts: [] },
    }));
    const { fn } = jsonFetch({
      'GET /api/admin/payouts': () => ({ body: answer }),
      'POST /api/admin/payouts/approve': (init) => onApprove((JSON.parse(String(init?.body)) as { ids: string[] }).ids),
    });
    showPayouts(answer, fn);

    expect(screen.getByText('Failed, returned to the lawyer')).toBeInTheDocument();
    expect(screen.getByText('Beneficiary account is dormant')).toBeInTheDocument();
    const batch = screen.getByRole('button', { name: 'Approve selected (0)' });
    expect(batch).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select ₦10,000.25 for Lawyer p1' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select ₦10,000.25 for Lawyer p3' }));
    await userEvent.click(screen.getByRole('button', { name: 'Approve selected (2)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve payouts' });
    expect(dialog).toHaveTextContent('Send ₦20,000.50 to 2 lawyers by bank transfer now?');
    expect(onApprove).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve and send' }));
    expect(await screen.findByRole('dialog', { name: 'Success' })).toHaveTextContent('2 payouts were approved');
    expect(onApprove).toHaveBeenCalledWith(['p1', 'p3']);
  });

  it(
    'a refused batch says which payout and why, and keeps the selection to approve again without it (decision 2295)',
    { timeout: 30_000 },
    async () => {
      const answer: AdminPayoutsResponse = {
        status: 'success',
        waitingTotal: 20_000.5,
        payouts: [payout('p1'), payout('p2')],
      };
      const refusal =
        'Nothing was approved: the payout of ₦10,000.25 to Lawyer p2 (id p2) is no longer covered by the lawyer’s available balance. Leave it out and approve the others again.';
      const sent: string[][] = [];
      const { fn } = jsonFetch({
        'GET /api/admin/payouts': () => ({ body: answer }),
        'POST /api/admin/payouts/approve': (init) => {
          sent.push((JSON.parse(String(init?.body)) as { ids: string[] }).ids);
          return sent.length === 1
            ? { status: 409, body: { status: 'fail', message: refusal } }
            : { body: { status: 'success', message: '1 payout was approved and sent to the bank.', payouts: [] } };
        },
      });
      showPayouts(answer, fn);
      const select = (id: string) => screen.getByRole('checkbox', { name: `Select ₦10,000.25 for Lawyer ${id}` });
      const approveChosen = async (n: number) => {
        await userEvent.click(screen.getByRole('button', { name: `Approve selected (${n})` }));
        const dialog = await screen.findByRole('dialog', { name: 'Approve payouts' });
        await userEvent.click(within(dialog).getByRole('button', { name: 'Approve and send' }));
      };
      await userEvent.click(select('p1'));
      await userEvent.click(select('p2'));
      await approveChosen(2);
      const refused = await screen.findByRole('dialog', { name: 'Something went wrong' });
      expect(refused).toHaveTextContent(refusal);
      await userEvent.click(within(refused).getAllByRole('button', { name: 'Close' })[0]);
      expect(select('p1')).toBeChecked();
      expect(select('p2')).toBeChecked();

      await userEvent.click(select('p2'));
      await approveChosen(1);
      expect(await screen.findByRole('dialog', { name: 'Success' })).toHaveTextContent('1 payout was approved');
      expect(sent).toEqual([['p1', 'p2'], ['p1']]);
    },
  );

  it('marks a payout to an account saved in the last 48 hours, and one no longer saved (decision 2244)', () => {
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    const client = testQueryClient();
    client.setQueryData(adminKeys.payouts(), {
      status: 'success',
      waitingTotal: 30_000.75,
      payouts: [
        payout('fresh', { detailsAddedAt: new Date(Date.now() - 3600_000).toISOString() }),
        payout('old'),
        payout('gone', { detailsAddedAt: null }),
      ],
    });
    renderPage(<PayoutsPage />, { client });
    const rowOf = (name: string) =>
      screen.getByRole('checkbox', { name: `Select ₦10,000.25 for ${name}` }).closest('li')!;
    expect(within(rowOf('Lawyer fresh')).getByText('New account')).toBeInTheDocument();
    expect(within(rowOf('Lawyer old')).queryByText('New account')).toBeNull();
    expect(within(rowOf('Lawyer old')).getByText(/account saved/)).toBeInTheDocument();
    expect(within(rowOf('Lawyer gone')).getByText('Not the saved account now')).toBeInTheDocument();
  });

  it('says so when nothing is waiting', () => {
    const client = testQueryClient();
    client.setQueryData(adminKeys.payouts(), { status: 'success', waitingTotal: 0, payouts: [] });
    renderPage(<PayoutsPage />, { client });
    expect(screen.getByText('No payouts are waiting for approval')).toBeInTheDocument();
    expect(screen.getByText('No payouts approved yet')).toBeInTheDocument();
  });

  it(
    'keeps the reason typed when a rejection fails, says why, and sends it again as it was',
    { timeout: 30_000 },
    async () => {
      const answer = oneWaiting();
      const reasons: string[] = [];
      const { fn } = jsonFetch({
        'GET /api/admin/payouts': () => ({ body: answer }),
        'POST /api/admin/payouts/p1/reject': (init) => {
          reasons.push((JSON.parse(String(init?.body)) as { reason: string }).reason);
          return reasons.length === 1
            ? { status: 503, body: { status: 'error', message: 'The database is busy, please try again' } }
            : { body: { status: 'success', message: 'The payout was rejected.', payout: payout('p1') } };
        },
      });
      showPayouts(answer, fn);
      const reason = 'The account name does not match the lawyer on our records';
      await userEvent.click(screen.getByRole('button', { name: /^Reject/ }));
      const dialog = await screen.findByRole('dialog', { name: 'Reject payout' });
      await userEvent.type(within(dialog).getByLabelText('Reason for the lawyer'), reason);
      await userEvent.click(within(dialog).getByRole('button', { name: 'Reject payout' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('The database is busy, please try again');
      expect(within(dialog).getByLabelText('Reason for the lawyer')).toHaveValue(reason);
      await userEvent.click(within(dialog).getByRole('button', { name: 'Reject payout' }));
      expect(await screen.findByRole('dialog', { name: 'Success' })).toHaveTextContent('The payout was rejected.');
      expect(reasons).toEqual([reason, reason]);
    },
  );

  it(
    'keeps the reason of a rejection through a closed dialog and a reload (decision 2226)',
    { timeout: 30_000 },
    async () => {
      const answer = oneWaiting();
      const { fn } = jsonFetch(rejectionRoutes(answer));
      const show = () => showPayouts(answer, fn);
      const reason = 'The account name does not match the lawyer on our records';
      const view = show();
      await userEvent.click(screen.getByRole('button', { name: /^Reject/ }));
      let dialog = await screen.findByRole('dialog', { name: 'Reject payout' });
      await userEvent.type(within(dialog).getByLabelText('Reason for the lawyer'), reason);
      await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
      await userEvent.click(screen.getByRole('button', { name: /^Reject/ }));
      dialog = await screen.findByRole('dialog', { name: 'Reject payout' });
      expect(within(dialog).getByLabelText('Reason for the lawyer')).toHaveValue(reason);

      view.unmount();
      show();
      await userEvent.click(screen.getByRole('button', { name: /^Reject/ }));
      dialog = await screen.findByRole('dialog', { name: 'Reject payout' });
      expect(within(dialog).getByLabelText('Reason for the lawyer')).toHaveValue(reason);
      await userEvent.click(within(dialog).getByRole('button', { name: 'Reject payout' }));
      expect(await screen.findByRole('dialog', { name: 'Success' })).toHaveTextContent('The payout was rejected.');
      expect(localStorage.getItem('draft:a1:reject-payout:p1')).toBeNull();
    },
  );

  it(
    'a rejection closed while on its way stays busy when reopened, is sent once, and says Success only for its payout (decision 2281)',
    { timeout: 30_000 },
    async () => {
      const answer: AdminPayoutsResponse = {
        status: 'success',
        waitingTotal: 20_000.5,
        payouts: [payout('p1'), payout('p2')],
      };
      const { fn, sent, release: respondToRejection } = heldFetch(rejectionRoutes(answer), rejecting);
      showPayouts(answer, fn);
      const rejectOf = (id: string) => screen.getByRole('button', { name: new RegExp(`^Reject.*Lawyer ${id}$`) });
      await userEvent.click(rejectOf('p1'));
      let dialog = await screen.findByRole('dialog', { name: 'Reject payout' });
      await userEvent.type(within(dialog).getByLabelText('Reason for the lawyer'), 'The account name does not match');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Reject payout' }));
      await vi.waitFor(() => expect(sent).toHaveLength(1));
      await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

      // Opened again for the same payout: still busy, so a second tap sends nothing.
      await userEvent.click(rejectOf('p1'));
      dialog = await screen.findByRole('dialog', { name: 'Reject payout' });
      const busy = within(dialog).getByRole('button', { name: /Reject payout/ });
      expect(busy).toBeDisabled();
      await userEvent.click(busy);
      expect(sent).toEqual(['/api/admin/payouts/p1/reject']);
      await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

      // Opened for another payout meanwhile: the answer for p1 leaves that dialog and its reason alone.
      await userEvent.click(rejectOf('p2'));
      dialog = await screen.findByRole('dialog', { name: 'Reject payout' });
      expect(dialog).toHaveTextContent('Lawyer p2');
      await userEvent.type(within(dialog).getByLabelText('Reason for the lawyer'), 'Wrong bank');
      respondToRejection();
      await vi.waitFor(() => expect(within(dialog).getByRole('button', { name: /Reject payout/ })).toBeEnabled());
      expect(screen.queryByRole('dialog', { name: 'Success' })).toBeNull();
      expect(screen.getByRole('dialog', { name: 'Reject payout' })).toHaveTextContent('Lawyer p2');
      expect(within(dialog).getByLabelText('Reason for the lawyer')).toHaveValue('Wrong bank');
      expect(localStorage.getItem('draft:a1:reject-payout:p1')).toBeNull();
    },
  );

  it(
    'a rejection closed while on its way says Success when it is answered (decision 2281)',
    { timeout: 30_000 },
    async () => {
      const answer = oneWaiting();
      const { fn, release: respondToRejection } = heldFetch(rejectionRoutes(answer), rejecting);
      showPayouts(answer, fn);
      await userEvent.click(screen.getByRole('button', { name: /^Reject/ }));
      let dialog = await screen.findByRole('dialog', { name: 'Reject payout' });
      await userEvent.type(within(dialog).getByLabelText('Reason for the lawyer'), 'The account name does not match');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Reject payout' }));
      await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await userEvent.click(screen.getByRole('button', { name: /^Reject/ }));
      dialog = await screen.findByRole('dialog', { name: 'Reject payout' });
      respondToRejection();
      expect(await screen.findByRole('dialog', { name: 'Success' })).toHaveTextContent('The payout was rejected.');
      expect(screen.queryByRole('dialog', { name: 'Reject payout' })).toBeNull();
    },
  );
});
