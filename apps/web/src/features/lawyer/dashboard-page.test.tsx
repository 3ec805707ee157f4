import { describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@legalmarket/contracts/messages';
import { setSession } from '@/lib/session';
import { lawyerJob } from '@/test/job-fixture';
import { heldFetch, sendThenOpenAnother } from '@/test/held-fetch';
import { jsonFetch, renderPage, testQueryClient } from '@/test/render';
import { verifiedLawyer } from '@/test/lawyer-profile';
import { lawyerKeys } from './api/keys';
import LawyerDashboardPage from './dashboard-page';

const job = lawyerJob;

/** A query cache holding the signed-in lawyer's profile, verified: Request more details is offered only then. */
function verifiedClient() {
  const client = testQueryClient();
  client.setQueryData(lawyerKeys.profile('l1', false), { ...verifiedLawyer, userType: 'lawyer' });
  return client;
}

/** A server holding `counts` projects per state, answering pages as GET /job-api/lawyer/{status}jobs does. */
function server(counts: { pending: number; completed: number }) {
  const list = (status: 'pending' | 'completed') => (_: unknown, url: URL) => {
    const page = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const all = Array.from({ length: counts[status] }, (_, i) => job(status, i + 1));
    return { body: all.slice((page - 1) * limit, page * limit), headers: { 'x-total-count': String(all.length) } };
  };
  const routes = {
    'GET /job-api/lawyer/pendingjobs': list('pending'),
    'GET /job-api/lawyer/completedjobs': list('completed'),
  };
  return { ...jsonFetch(routes), routes };
}

describe('/lawyer/dashboard projects', { timeout: 30_000 }, () => {
  it('pages pending projects past the first 50, asking the server for each page', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    const { fn, calls } = server({ pending: 57, completed: 0 });
    vi.stubGlobal('fetch', fn);
    renderPage(<LawyerDashboardPage />, { client: verifiedClient() });
    const list = await screen.findByRole('list', { name: 'Pending projects' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    const pager = screen.getByRole('navigation', { name: 'Pagination' });
    await userEvent.click(within(pager).getByRole('button', { name: '5' }));
    expect(await screen.findByText('pending job 41')).toBeInTheDocument();
    await userEvent.click(
      within(screen.getByRole('navigation', { name: 'Pagination' })).getByRole('button', { name: 'Next page' }),
    );
    expect(await screen.findByText('pending job 57')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Pending projects' })).getAllByRole('listitem')).toHaveLength(7);
    expect(calls.some((c) => c.url.searchParams.get('page') === '6' && c.url.searchParams.get('limit') === '10')).toBe(
      true,
    );
  });

  it('pages completed projects too, from page 1 when the tab changes', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    const { fn } = server({ pending: 25, completed: 12 });
    vi.stubGlobal('fetch', fn);
    renderPage(<LawyerDashboardPage />, { client: verifiedClient() });
    await screen.findByRole('list', { name: 'Pending projects' });
    await userEvent.click(
      within(screen.getByRole('navigation', { name: 'Pagination' })).getByRole('button', { name: '3' }),
    );
    expect(await screen.findByText('pending job 25')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Completed projects' }));
    expect(await screen.findByText('completed job 1')).toBeInTheDocument();
    await userEvent.click(
      within(screen.getByRole('navigation', { name: 'Pagination' })).getByRole('button', { name: '2' }),
    );
    expect(await screen.findByText('completed job 12')).toBeInTheDocument();
  });

  it('says No projects when there are none', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    vi.stubGlobal('fetch', server({ pending: 0, completed: 0 }).fn);
    renderPage(<LawyerDashboardPage />, { client: verifiedClient() });
    expect(await screen.findByText('No projects')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
  });
});

describe('Request more details (react-hook-form with the contract schema)', { timeout: 30_000 }, () => {
  async function openModal(extra: Parameters<typeof jsonFetch>[0] = {}) {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    const api = jsonFetch({ ...server({ pending: 1, completed: 0 }).routes, ...extra });
    vi.stubGlobal('fetch', api.fn);
    renderPage(<LawyerDashboardPage />, { client: verifiedClient() });
    const list = await screen.findByRole('list', { name: 'Pending projects' });
    await userEvent.click(within(list).getByRole('button', { name: 'Request more details' }));
    return { api, dialog: await screen.findByRole('dialog') };
  }

  it('refuses blank text with the schema message under the field, gone once text is typed', async () => {
    const { api, dialog } = await openModal();
    const text = within(dialog).getByLabelText('What details do you need?');
    await userEvent.type(text, '   ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText(messages.kindlyRequestDetails)).toBeVisible();
    expect(text).toHaveAttribute('aria-invalid', 'true');
    expect(text).toHaveAccessibleDescription(messages.kindlyRequestDetails);
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.type(text, 'The CAC forms');
    expect(text).not.toHaveAttribute('aria-invalid');
    expect(within(dialog).queryByText(messages.kindlyRequestDetails)).toBeNull();
  });

  it('sends the trimmed text and shows the answer', async () => {
    const { api, dialog } = await openModal({
      'POST /job-api/requestmorejobdetails/pending-1': () => ({
        body: { status: 'success', message: messages.requestSent },
      }),
    });
    await userEvent.type(within(dialog).getByLabelText('What details do you need?'), '  The CAC forms, please.  ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('heading', { name: 'Success' })).toBeVisible();
    expect(screen.getByText(messages.requestSent)).toBeVisible();
    const post = api.calls.find((c) => c.method === 'POST');
    expect(JSON.parse(String(post?.init?.body))).toEqual({ detail: 'The CAC forms, please.' });
  });
});

describe('Request more details keeps what is typed (decision 2226)', { timeout: 30_000 }, () => {
  it('through a failed send, a closed dialog and a reload, and drops it once sent', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    let posts = 0;
    const api = jsonFetch({
      ...server({ pending: 1, completed: 0 }).routes,
      'POST /job-api/requestmorejobdetails/pending-1': () =>
        ++posts === 1
          ? { status: 503, body: { message: 'Service unavailable' } }
          : { body: { status: 'success', message: messages.requestSent } },
    });
    vi.stubGlobal('fetch', api.fn);
    const text = 'The CAC forms CAC2 and CAC7, the board resolution and the shareholders register, please.';
    const openDialog = async () => {
      const list = await screen.findByRole('list', { name: 'Pending projects' });
      await userEvent.click(within(list).getByRole('button', { name: 'Request more details' }));
      return screen.findByRole('dialog');
    };
    const view = renderPage(<LawyerDashboardPage />, { client: verifiedClient() });
    let dialog = await openDialog();
    await userEvent.type(within(dialog).getByLabelText('What details do you need?'), text);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Service unavailable')).toBeVisible();
    expect(within(dialog).getByLabelText('What details do you need?')).toHaveValue(text);

    // Closed by a stray tap: the form empties, the draft stays for the job.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    dialog = await openDialog();
    await vi.waitFor(() => expect(within(dialog).getByLabelText('What details do you need?')).toHaveValue(text));

    view.unmount();
    renderPage(<LawyerDashboardPage />, { client: verifiedClient() });
    dialog = await openDialog();
    await vi.waitFor(() => expect(within(dialog).getByLabelText('What details do you need?')).toHaveValue(text));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('heading', { name: 'Success' })).toBeVisible();
    expect(localStorage.getItem('draft:l1:details-request:pending-1')).toBeNull();
  });
});

describe('Request more details closed while on its way', { timeout: 30_000 }, () => {
  it('stays busy when opened again, says Success once sent and drops the draft', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    let posts = 0;
    // The request is held until the test lets it answer: a slow phone network.
    const { fn, release } = heldFetch(
      {
        ...server({ pending: 1, completed: 0 }).routes,
        'POST /job-api/requestmorejobdetails/pending-1': () => {
          posts++;
          return { body: { status: 'success', message: messages.requestSent } };
        },
      },
      ({ method }) => method === 'POST',
    );
    vi.stubGlobal('fetch', fn);
    renderPage(<LawyerDashboardPage />, { client: verifiedClient() });
    const openDialog = async () => {
      const list = await screen.findByRole('list', { name: 'Pending projects' });
      await userEvent.click(within(list).getByRole('button', { name: 'Request more details' }));
      return screen.findByRole('dialog');
    };
    let dialog = await openDialog();
    await userEvent.type(within(dialog).getByLabelText('What details do you need?'), 'The CAC forms, please.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    // Closed by a tap beside it while the request is on its way, and opened again.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    dialog = await openDialog();
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeDisabled();
    // Editing the request meanwhile keeps the dialog waiting: no second request can go out.
    await userEvent.type(within(dialog).getByLabelText('What details do you need?'), '!');
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeDisabled();
    await act(async () => release());
    expect(await screen.findByRole('heading', { name: 'Success' })).toBeVisible();
    expect(localStorage.getItem('draft:l1:details-request:pending-1')).toBeNull();
    expect(posts).toBe(1);
  });
});

describe('Request more details follows the lifecycle table', { timeout: 30_000 }, () => {
  it('is not offered on a delivery waiting for the company, whose request would be refused', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    const working = job('pending', 1);
    const delivered = { ...job('pending', 2), stage: 'delivered' as const };
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /job-api/lawyer/pendingjobs': () => ({ body: [working, delivered], headers: { 'x-total-count': '2' } }),
        'GET /job-api/lawyer/completedjobs': () => ({ body: [], headers: { 'x-total-count': '0' } }),
      }).fn,
    );
    renderPage(<LawyerDashboardPage />, { client: verifiedClient() });
    const list = await screen.findByRole('list', { name: 'Pending projects' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(within(first).getByText('pending job 1')).toBeVisible();
    expect(within(first).getByRole('button', { name: 'Request more details' })).toBeVisible();
    expect(within(second).getByText('pending job 2')).toBeVisible();
    expect(within(second).queryByRole('button', { name: 'Request more details' })).toBeNull();
  });
});

describe('Request more details for one job while another job’s is on its way', { timeout: 30_000 }, () => {
  async function sendForFirstThenOpenSecond(reply: { status: number; body: unknown }) {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    const { fn, release } = heldFetch(
      { ...server({ pending: 2, completed: 0 }).routes, 'POST /job-api/requestmorejobdetails/pending-1': () => reply },
      ({ method }) => method === 'POST',
    );
    vi.stubGlobal('fetch', fn);
    renderPage(<LawyerDashboardPage />, { client: verifiedClient() });
    const list = await screen.findByRole('list', { name: 'Pending projects' });
    const [first, second] = within(list).getAllByRole('button', { name: 'Request more details' });
    const dialog = await sendThenOpenAnother(first, second, 'What details do you need?', 'For the first job.');
    expect(within(dialog).getByText('pending job 2')).toBeVisible();
    await userEvent.type(within(dialog).getByLabelText('What details do you need?'), 'For the second job.');
    await act(async () => release());
    return dialog;
  }

  it('does not show the first job’s refusal in the second job’s dialog', async () => {
    const dialog = await sendForFirstThenOpenSecond({ status: 500, body: { message: 'Internal Server Error' } });
    await vi.waitFor(() => expect(within(dialog).getByRole('button', { name: 'Send' })).toBeEnabled());
    expect(within(dialog).queryByText('Internal Server Error')).toBeNull();
    expect(within(dialog).getByLabelText('What details do you need?')).toHaveValue('For the second job.');
  });

  it('does not cover the second job’s dialog with the first job’s Success', async () => {
    const dialog = await sendForFirstThenOpenSecond({
      status: 200,
      body: { status: 'success', message: messages.requestSent },
    });
    await vi.waitFor(() => expect(localStorage.getItem('draft:l1:details-request:pending-1')).toBeNull());
    expect(screen.queryByRole('heading', { name: 'Success' })).toBeNull();
    expect(within(dialog).getByLabelText('What details do you need?')).toHaveValue('For the second job.');
  });
});

// Decision 2310: a lawyer whose verification was withdrawn reads its projects but acts on them no more;
// the dashboard offered "Request more details" all the same, and the API answered 403.
describe('Request more details for a lawyer no longer verified', { timeout: 30_000 }, () => {
  it('is not offered once the verification is withdrawn, and is while it stands', async () => {
    for (const verified of [false, true]) {
      setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
      vi.stubGlobal(
        'fetch',
        jsonFetch({
          'GET /job-api/lawyer/pendingjobs': () => ({ body: [job('pending', 1)], headers: { 'x-total-count': '1' } }),
          'GET /job-api/lawyer/completedjobs': () => ({ body: [], headers: { 'x-total-count': '0' } }),
          'GET /api/userprofile': () => ({ body: { ...verifiedLawyer, userType: 'lawyer', verified } }),
        }).fn,
      );
      const { unmount } = renderPage(<LawyerDashboardPage />);
      const list = await screen.findByRole('list', { name: 'Pending projects' });
      const [item] = within(list).getAllByRole('listitem');
      expect(within(item).getByText('pending job 1')).toBeVisible();
      if (verified) expect(await within(item).findByRole('button', { name: 'Request more details' })).toBeVisible();
      else {
        // The banner says why, once the profile is read.
        await vi.waitFor(() => expect(within(item).queryByRole('button', { name: 'Request more details' })).toBeNull());
        expect(within(item).getByRole('link', { name: /Messages and files/ })).toBeVisible();
      }
      unmount();
    }
  });
});

describe('Request more details while the verification is not known', { timeout: 30_000 }, () => {
  const routes = (extra: Parameters<typeof jsonFetch>[0] = {}) => ({
    'GET /job-api/lawyer/pendingjobs': () => ({
      body: [{ ...job('pending', 1), lawyerRequestedDetail: 'The CAC forms, please.' }],
      headers: { 'x-total-count': '1' },
    }),
    'GET /job-api/lawyer/completedjobs': () => ({ body: [], headers: { 'x-total-count': '0' } }),
    ...extra,
  });

  it('is not offered before the profile is read, and is once it says verified', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    const { fn, release } = heldFetch(
      routes({ 'GET /api/userprofile': () => ({ body: { ...verifiedLawyer, userType: 'lawyer' } }) }),
      ({ url }) => url.pathname === '/api/userprofile',
    );
    vi.stubGlobal('fetch', fn);
    renderPage(<LawyerDashboardPage />);
    const list = await screen.findByRole('list', { name: 'Pending projects' });
    const [item] = within(list).getAllByRole('listitem');
    expect(within(item).queryByRole('button', { name: 'Request more details' })).toBeNull();
    // The lawyer's own earlier request shows all the same.
    expect(within(item).getByText('The CAC forms, please.')).toBeVisible();
    await act(async () => release());
    expect(await within(item).findByRole('button', { name: 'Request more details' })).toBeVisible();
  });

  it('is not offered when the profile cannot be read, which says so with Try again', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    let reads = 0;
    vi.stubGlobal(
      'fetch',
      jsonFetch(
        routes({
          'GET /api/userprofile': () =>
            ++reads === 1
              ? { status: 503, body: { message: 'Service unavailable' } }
              : { body: { ...verifiedLawyer, userType: 'lawyer' } },
        }),
      ).fn,
    );
    renderPage(<LawyerDashboardPage />);
    const list = await screen.findByRole('list', { name: 'Pending projects' });
    const [item] = within(list).getAllByRole('listitem');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your verification could not be checked');
    expect(alert).toHaveTextContent('Service unavailable');
    expect(within(item).queryByRole('button', { name: 'Request more details' })).toBeNull();
    expect(within(item).getByText('The CAC forms, please.')).toBeVisible();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(item).findByRole('button', { name: 'Request more details' })).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the lawyer its last request once its verification is withdrawn', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    vi.stubGlobal(
      'fetch',
      jsonFetch(
        routes({
          'GET /api/userprofile': () => ({ body: { ...verifiedLawyer, userType: 'lawyer', verified: false } }),
        }),
      ).fn,
    );
    renderPage(<LawyerDashboardPage />);
    // The banner saying why shows once the profile is read.
    expect(await screen.findByText(messages.verificationPending)).toBeVisible();
    const [item] = within(screen.getByRole('list', { name: 'Pending projects' })).getAllByRole('listitem');
    expect(within(item).queryByRole('button', { name: 'Request more details' })).toBeNull();
    expect(within(item).getByText('Your last request:')).toBeVisible();
    expect(within(item).getByText('The CAC forms, please.')).toBeVisible();
  });
});
