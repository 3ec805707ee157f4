import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { Link, MemoryRouter, Route, Routes } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import type { JobEventResponse } from '@legalmarket/contracts/job-lifecycle';
import type { JobPageResponse } from '@legalmarket/contracts/jobs';
import { messages } from '@legalmarket/contracts/messages';
import { planMessages } from '@legalmarket/contracts/plans';
import { setSession } from '@/lib/session';
import { pressBeforePayee } from '@/test/complete-fixture';
import { jobFixture } from '@/test/job-fixture';
import { heldFetch, type Holds } from '@/test/held-fetch';
import { jsonFetch, renderPage, testQueryClient } from '@/test/render';
import JobPage from './job-page';

const event = (id: number, over: Partial<JobEventResponse> = {}): JobEventResponse => ({
  _id: String(id),
  action: 'message',
  actor: { _id: 'lawyer-1', name: 'Tunde Bakare', role: 'lawyer' },
  note: `Message ${id}`,
  files: [],
  fromStage: 'in_progress',
  toStage: 'in_progress',
  createdAt: '2026-11-20T10:00:00.000Z',
  ...over,
});

const pageData = (over: Partial<JobPageResponse> = {}): JobPageResponse => ({
  job: {
    ...jobFixture({ status: 'pending' }),
    stage: 'delivered',
    dueAt: '2026-12-04T22:59:59.000Z',
    late: false,
    assignedTo: [{ _id: 'lawyer-1', name: 'Tunde Bakare', officialEmail: '', phoneNumber: '' }],
  },
  viewer: 'company',
  actions: ['message', 'request_changes', 'accept'],
  events: [
    event(1, { action: 'assign', actor: { _id: 'admin-1', name: 'Admin (admin)', role: 'admin' }, note: null }),
    event(2),
    event(3, {
      action: 'deliver',
      note: null,
      files: [{ url: '/uploads/abc.pdf', name: 'a-very-long-file-name-without-any-spaces-at-all-final-v3.pdf' }],
    }),
  ],
  earlier: false,
  lastReadEventId: '1',
  planCredit: false,
  deliveries: 1,
  ...over,
});

/** Signs the company in and answers the job page with `data`; requests `holds` picks wait for release. */
const serve = (data: JobPageResponse, extra: Parameters<typeof jsonFetch>[0] = {}, holds: Holds = () => false) => {
  setSession({ userToken: 't', userType: 'company', userId: 'company-1' });
  const stub = heldFetch(
    {
      'GET /job-api/jobs/job-1': () => ({ body: data }),
      'POST /job-api/jobs/job-1/read': () => ({ body: { status: 'success' } }),
      ...extra,
    },
    holds,
  );
  vi.stubGlobal('fetch', stub.fn);
  return stub;
};

const open = (data: JobPageResponse, extra: Parameters<typeof jsonFetch>[0] = {}, holds?: Holds) => {
  const stub = serve(data, extra, holds);
  renderPage(<JobPage />, { path: '/jobs/:jobId', at: '/jobs/job-1' });
  return stub;
};

/** The job page with links to go elsewhere and back, for sends that outlive the page that made them. */
const openWithLinks = (extra: Parameters<typeof jsonFetch>[0], holds: Holds) => {
  const stub = serve(pageData(), extra, holds);
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter initialEntries={['/jobs/job-1']}>
        <nav>
          <Link to="/dashboard">Dashboard</Link> <Link to="/jobs/job-1">The job</Link>
        </nav>
        <Routes>
          <Route path="/jobs/:jobId" element={<JobPage />} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return stub;
};

/** Holds each message on its way. */
const sending: Holds = ({ url }) => url.pathname.endsWith('/actions/message');

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('/jobs/:jobId', { timeout: 30_000 }, () => {
  it('states the document types and size limit before one is picked', async () => {
    open(pageData());
    await screen.findByRole('heading', { name: 'A job' });
    expect(screen.getByLabelText('Attach a document')).toHaveAccessibleDescription(
      'PDF, Word (DOC, DOCX) or a picture, at most 10 MB each. Up to 5 documents.',
    );
  });

  it('names the document each Remove takes out', async () => {
    localStorage.setItem(
      'draft:company-1:job:job-1:files',
      JSON.stringify([
        { url: '/uploads/k1.pdf', fileName: 'board-resolution.pdf' },
        { url: '/uploads/k2.pdf', fileName: 'cac-status-report.pdf' },
      ]),
    );
    open(pageData());
    await screen.findByRole('heading', { name: 'A job' });
    await userEvent.click(screen.getByRole('button', { name: 'Remove board-resolution.pdf' }));
    expect(screen.queryByText('board-resolution.pdf')).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove cac-status-report.pdf' })).toBeEnabled();
  });

  it("shows only the buttons the response's actions allow, with the table's labels", async () => {
    open(pageData());
    await screen.findByRole('heading', { name: 'A job' });
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Request changes' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Accept' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Deliver' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel job' })).not.toBeInTheDocument();
    expect(screen.getByText('Delivered')).toBeInTheDocument();
  });

  it('isolates a name with a direction control, so the words after it read as written', async () => {
    const reversing = 'Ada\u202e Ventures';
    open(
      pageData({
        events: [
          event(1, { action: 'give_details', actor: { _id: 'c-1', name: reversing, role: 'company' }, note: 'x' }),
          event(2, { actor: { _id: 'c-1', name: reversing, role: 'company' } }),
        ],
      }),
    );
    await screen.findByRole('heading', { name: 'A job' });
    const names = screen.getAllByText(reversing);
    expect(names).toHaveLength(2);
    for (const name of names) expect(name.tagName).toBe('BDI');
  });

  it('marks where the unread events start and the thread read up to the newest', async () => {
    const { calls } = open(pageData());
    await screen.findByRole('heading', { name: 'A job' });
    const items = within(screen.getByRole('list', { name: 'Timeline and messages' })).getAllByRole('listitem');
    const divider = screen.getByRole('separator');
    expect(divider).toHaveTextContent('New');
    // Event 1 was read: the line comes right before event 2.
    expect(items[1]).toHaveTextContent('Message 2');
    await vi.waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && String(c.init?.body).includes('"lastEventId":"3"'))).toBe(true),
    );
  });

  it('sends a message again after a failure with the same key, and the next message with a new one', async () => {
    let answers = 0;
    const { calls } = open(pageData(), {
      'POST /job-api/jobs/job-1/actions/message': () =>
        ++answers === 1 ? { status: 503, body: { status: 'fail', message: 'Try again' } } : { body: pageData() },
    });
    await screen.findByRole('heading', { name: 'A job' });
    const box = screen.getByRole('textbox', { name: /message/i });
    await userEvent.type(box, 'Hello');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByText('Try again');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(box).toHaveValue(''));
    await userEvent.type(box, 'Hello again');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(answers).toBe(3));
    const keys = calls
      .filter((c) => c.url.pathname.endsWith('/actions/message'))
      .map((c) => (JSON.parse(String(c.init?.body)) as { key: string }).key);
    expect(keys).toHaveLength(3);
    for (const k of keys) expect(k).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
  });

  it('opens and sends with a key where crypto.randomUUID is missing (plain http on a LAN address)', async () => {
    // Browsers give crypto.randomUUID only in secure contexts; getRandomValues everywhere.
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const { calls } = open(pageData(), {
        'POST /job-api/jobs/job-1/actions/message': () => ({ body: pageData() }),
      });
      await screen.findByRole('heading', { name: 'A job' });
      await userEvent.type(screen.getByRole('textbox', { name: /message/i }), 'Hello');
      await userEvent.click(screen.getByRole('button', { name: 'Send' }));
      await vi.waitFor(() => expect(calls.some((c) => c.url.pathname.endsWith('/actions/message'))).toBe(true));
      const sent = calls.find((c) => c.url.pathname.endsWith('/actions/message'))!;
      expect((JSON.parse(String(sent.init?.body)) as { key: string }).key).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    } finally {
      delete (crypto as { randomUUID?: unknown }).randomUUID;
    }
  });

  it('asks for the details before giving them, sending nothing empty', async () => {
    const { calls } = open(
      pageData({ job: { ...pageData().job, stage: 'in_progress' }, actions: ['message', 'give_details'] }),
    );
    await screen.findByRole('heading', { name: 'A job' });
    await userEvent.click(screen.getByRole('button', { name: 'Give details' }));
    expect(screen.getByRole('alert')).toHaveTextContent(messages.kindlyAddDetails);
    expect(calls.some((c) => c.url.pathname.includes('/actions/'))).toBe(false);
  });

  it('asks for a note before requesting changes and for confirmation before accepting', async () => {
    const { calls } = open(pageData(), {
      'POST /job-api/jobs/job-1/actions/accept': () => ({
        body: pageData({
          actions: [],
          job: { ...pageData().job, status: 'completed', stage: 'completed' },
        }),
      }),
    });
    await screen.findByRole('heading', { name: 'A job' });
    await userEvent.click(screen.getByRole('button', { name: 'Request changes' }));
    expect(screen.getByRole('alert')).toHaveTextContent(messages.changesNoteMissing);
    expect(calls.some((c) => c.url.pathname.includes('/actions/'))).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Accept' }));
    const dialog = await screen.findByRole('dialog', { name: 'Accept' });
    expect(calls.some((c) => c.url.pathname.includes('/actions/'))).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('Completed')).toBeInTheDocument();
    expect(calls.filter((c) => c.url.pathname.endsWith('/actions/accept'))).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
  });

  it('accepts the delivery it shows: names it, follows a newer one from polling, and reads the page again on 409', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let polled = false;
    const { calls } = open(pageData(), {
      'GET /job-api/jobs/job-1/events': () => {
        polled = true;
        return {
          body: {
            stage: 'delivered',
            actions: ['message', 'request_changes', 'accept'],
            deliveries: 2,
            events: [
              event(4, { action: 'request_changes', actor: { _id: 'company-1', name: 'Ada', role: 'company' } }),
              event(5, { action: 'deliver_again', note: null, files: [{ url: '/uploads/v2.pdf', name: 'v2.pdf' }] }),
            ],
            earlier: false,
            later: false,
          },
        };
      },
      'POST /job-api/jobs/job-1/actions/accept': () => ({
        status: 409,
        body: { status: 'fail', message: messages.deliveryReplaced },
      }),
    });
    await screen.findByRole('heading', { name: 'A job' });
    const accept = async () => {
      await userEvent.click(screen.getByRole('button', { name: 'Accept' }));
      const dialog = await screen.findByRole('dialog', { name: 'Accept' });
      await userEvent.click(within(dialog).getByRole('button', { name: 'Accept' }));
    };
    const named = () =>
      calls
        .filter((c) => c.url.pathname.endsWith('/actions/accept'))
        .map((c) => (JSON.parse(String(c.init?.body)) as { delivery?: number }).delivery);
    const pageReads = () => calls.filter((c) => c.url.pathname === '/job-api/jobs/job-1').length;
    await accept();
    expect(await screen.findByText(messages.deliveryReplaced)).toBeInTheDocument();
    expect(named()).toEqual([1]);
    // The refusal reads the page again, so the newer delivery shows under the message.
    await waitFor(() => expect(pageReads()).toBe(2));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4_100);
    });
    await waitFor(() => expect(polled).toBe(true));
    expect(await screen.findByText('v2.pdf')).toBeInTheDocument();
    await accept();
    await waitFor(() => expect(named()).toEqual([1, 2]));
  });

  it('while an action is on its way, marks its own button busy and keeps every button from sending again', async () => {
    let accepts = 0;
    // The accept is held until the test lets it answer: a slow network.
    const { release } = open(
      pageData(),
      {
        'POST /job-api/jobs/job-1/actions/accept': () => {
          accepts++;
          return { body: pageData({ actions: [], job: { ...pageData().job, stage: 'completed' } }) };
        },
      },
      ({ url }) => url.pathname.endsWith('/actions/accept'),
    );
    await screen.findByRole('heading', { name: 'A job' });
    await userEvent.click(screen.getByRole('button', { name: 'Accept' }));
    const dialog = await screen.findByRole('dialog', { name: 'Accept' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Accept' }));
    const accept = await screen.findByRole('button', { name: 'Accept' });
    await waitFor(() => expect(accept).toHaveAttribute('aria-busy', 'true'));
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).not.toHaveAttribute('aria-busy');
    expect(send).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Request changes' })).toBeDisabled();
    expect(accept).toBeDisabled();
    await act(async () => release());
    expect(await screen.findByText('Completed')).toBeInTheDocument();
    expect(accepts).toBe(1);
  });

  it('appends new events from polling while visible, without a reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls } = open(pageData(), {
      'GET /job-api/jobs/job-1/events': (_, url) => ({
        body: {
          stage: 'delivered',
          actions: ['message', 'request_changes', 'accept'],
          events: url.searchParams.get('after') === '3' ? [event(4, { note: 'Any questions?' })] : [],
          earlier: false,
        },
      }),
    });
    await screen.findByRole('heading', { name: 'A job' });
    expect(screen.queryByText('Any questions?')).not.toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4_100);
    });
    expect(await screen.findByText('Any questions?')).toBeInTheDocument();
    expect(calls.filter((c) => c.url.pathname.endsWith('/events')).length).toBeGreaterThanOrEqual(1);
  });

  it('reads the page again when a poll says more news remain than one answer holds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls } = open(pageData(), {
      'GET /job-api/jobs/job-1/events': () => ({
        body: {
          stage: 'delivered',
          actions: ['message', 'request_changes', 'accept'],
          events: [event(4, { note: 'One of many' })],
          earlier: false,
          later: true,
        },
      }),
    });
    await screen.findByRole('heading', { name: 'A job' });
    const pageReads = () => calls.filter((c) => c.url.pathname === '/job-api/jobs/job-1').length;
    const before = pageReads();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4_100);
    });
    await waitFor(() => expect(pageReads()).toBe(before + 1));
  });

  it("reads out what others add while the page is open, not earlier messages loaded in front nor the reader's own", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const mine = event(4, { actor: { _id: 'company-1', name: 'Acme Ltd', role: 'company' }, note: 'Hello' });
    open(pageData({ earlier: true }), {
      'GET /job-api/jobs/job-1/events': (_, url) => {
        if (url.searchParams.get('before'))
          return { body: { stage: 'delivered', actions: ['message'], events: [event(0)], earlier: false } };
        return {
          body: {
            stage: 'delivered',
            actions: ['message', 'request_changes', 'accept'],
            events: url.searchParams.get('after') === '4' ? [event(5, { note: 'Any questions?' })] : [],
            earlier: false,
          },
        };
      },
      'POST /job-api/jobs/job-1/actions/message': () => ({
        body: pageData({ events: [...pageData().events, mine], lastReadEventId: '4' }),
      }),
    });
    const timeline = await screen.findByRole('region', { name: 'Timeline and messages' });
    const list = within(timeline).getByRole('list', { name: 'Timeline and messages' });
    // The list is no live region: loading earlier messages in front of it would read them all out.
    expect(list).not.toHaveAttribute('aria-live');
    const heard = within(timeline).getByRole('status');
    expect(heard).toBeEmptyDOMElement();
    await userEvent.click(screen.getByRole('button', { name: 'Show earlier messages' }));
    await within(list).findByText('Message 0');
    expect(heard).toBeEmptyDOMElement();
    await userEvent.type(screen.getByRole('textbox', { name: /message/i }), 'Hello');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await within(list).findByText('Hello');
    expect(heard).toBeEmptyDOMElement();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4_100);
    });
    await within(list).findByText('Any questions?');
    expect(heard).toHaveTextContent('Tunde Bakare wrote: Any questions?');
  });

  it('shows earlier messages on request, in front of the shown ones, and hides the button when none remain', async () => {
    const { calls } = open(pageData({ earlier: true, events: [event(60), event(61)], lastReadEventId: '61' }), {
      'GET /job-api/jobs/job-1/events': (_, url) => ({
        body:
          url.searchParams.get('before') === '60'
            ? { stage: 'delivered', actions: ['message'], events: [event(58), event(59)], earlier: false }
            : { stage: 'delivered', actions: ['message'], events: [], earlier: false },
      }),
    });
    await screen.findByRole('heading', { name: 'A job' });
    expect(screen.queryByText('Message 59')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show earlier messages' }));
    await screen.findByText('Message 59');
    const items = within(screen.getByRole('list', { name: 'Timeline and messages' })).getAllByRole('listitem');
    expect(items.map((i) => i.textContent?.match(/Message \d+/)?.[0])).toEqual([
      'Message 58',
      'Message 59',
      'Message 60',
      'Message 61',
    ]);
    expect(screen.queryByRole('button', { name: 'Show earlier messages' })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.url.searchParams.get('before') === '60')).toHaveLength(1);
  });

  it('a plan job says a plan credit paid for its ₦0, where a paid job shows its amount', async () => {
    const amountShown = async (data: JobPageResponse) => {
      open(data);
      await screen.findByRole('heading', { name: 'A job' });
      const text = screen.getByText('Amount').nextElementSibling?.textContent;
      cleanup();
      return text;
    };
    const job = pageData().job;
    expect(await amountShown(pageData({ planCredit: true, job: { ...job, amount: 0 } }))).toBe(
      '₦0 (monthly plan credit)',
    );
    expect(await amountShown(pageData({ job: { ...job, amount: 75000 } }))).toMatch(/^₦\s?75,000/);
  });

  it("an admin's cancel of a plan job offers no refund: the dialog says the credit goes back to the plan", async () => {
    const admin = { viewer: 'admin' as const, actions: ['message', 'cancel'] as JobPageResponse['actions'] };
    const { calls } = open(pageData({ ...admin, planCredit: true }), {
      'POST /job-api/jobs/job-1/actions/cancel': () => ({
        body: pageData({ ...admin, actions: [], planCredit: true, job: { ...pageData().job, stage: 'cancelled' } }),
      }),
    });
    await screen.findByRole('heading', { name: 'A job' });
    await userEvent.click(screen.getByRole('button', { name: 'Cancel job' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel job' });
    expect(dialog).toHaveTextContent(planMessages.jobCancelCredit);
    expect(dialog).not.toHaveTextContent('refunded in full');
    expect(within(dialog).queryByRole('textbox')).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel job' }));
    await vi.waitFor(() => expect(calls.filter((c) => c.url.pathname.endsWith('/actions/cancel'))).toHaveLength(1));
    const sent = JSON.parse(String(calls.find((c) => c.url.pathname.endsWith('/actions/cancel'))!.init?.body));
    expect(sent).not.toHaveProperty('refund');
  });

  it("an admin's cancel of a bought job says what it paid is refunded in full", async () => {
    open(pageData({ viewer: 'admin', actions: ['message', 'cancel'] }));
    await screen.findByRole('heading', { name: 'A job' });
    await userEvent.click(screen.getByRole('button', { name: 'Cancel job' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel job' });
    expect(dialog).toHaveTextContent('What the company paid for this job is refunded in full.');
    expect(dialog).not.toHaveTextContent(planMessages.jobCancelCredit);
  });

  it("an admin's Mark as Completed names the lawyer it pays and the amount, and warns when they delivered nothing (2322)", async () => {
    const data = pageData({ viewer: 'admin', actions: ['message', 'complete'] });
    const payOnComplete = { lawyerId: 'lawyer-2', name: 'Bola Second', amount: 40_000, delivered: false };
    open(data, {
      'GET /job-api/admin/job/job-1': () => ({
        body: { status: 'success', message: 'ok', data: { job: { ...data.job, payOnComplete } } },
      }),
    });
    await screen.findByRole('heading', { name: 'A job' });
    await userEvent.click(screen.getByRole('button', { name: 'Mark as Completed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark as Completed' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Bola Second has delivered nothing on this job. Only Bola Second is paid: a lawyer who worked on it before a hand-over is not.',
    );
    expect(dialog).toHaveTextContent('Bola Second is paid ₦40,000 (what is held for the job, less the commission).');
  });

  it("an admin's Mark as Completed sends the lawyer and amount its question showed (2340)", async () => {
    const data = pageData({ viewer: 'admin', actions: ['message', 'complete'] });
    const payOnComplete = { lawyerId: 'lawyer-2', name: 'Bola Second', amount: 40_000, delivered: true };
    const sent: unknown[] = [];
    open(data, {
      'GET /job-api/admin/job/job-1': () => ({
        body: { status: 'success', message: 'ok', data: { job: { ...data.job, payOnComplete } } },
      }),
      'POST /job-api/jobs/job-1/actions/complete': (init) => {
        sent.push(JSON.parse(String(init?.body)));
        return { body: data };
      },
    });
    await screen.findByRole('heading', { name: 'A job' });
    await userEvent.click(screen.getByRole('button', { name: 'Mark as Completed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark as Completed' });
    await within(dialog).findByText('Bola Second');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark as Completed' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ payOnComplete: { lawyerId: 'lawyer-2', amount: 40_000 } });
  });

  it("an admin's Mark as Completed cannot be pressed until whom it pays has loaded, and says why", async () => {
    const data = pageData({ viewer: 'admin', actions: ['message', 'complete'] });
    const payOnComplete = { lawyerId: 'lawyer-2', name: 'Bola Second', amount: 40_000, delivered: true };
    const sent: unknown[] = [];
    // The one-job answer is slow (a phone on a weak line): the admin presses at once, twice.
    const { release } = open(
      data,
      {
        'GET /job-api/admin/job/job-1': () => ({
          body: { status: 'success', message: 'ok', data: { job: { ...data.job, payOnComplete } } },
        }),
        'POST /job-api/jobs/job-1/actions/complete': (init) => {
          sent.push(JSON.parse(String(init?.body)));
          return { body: data };
        },
      },
      ({ url }) => url.pathname === '/job-api/admin/job/job-1',
    );
    await screen.findByRole('heading', { name: 'A job' });
    await userEvent.click(screen.getByRole('button', { name: 'Mark as Completed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark as Completed' });
    await pressBeforePayee(dialog, 'Bola Second', release, sent);
    expect(sent[0]).toMatchObject({ payOnComplete: { lawyerId: 'lawyer-2', amount: 40_000 } });
  });

  it("an admin's Mark as Completed reopened waits for whom it pays now, and sends that, not the figure shown before", async () => {
    const data = pageData({ viewer: 'admin', actions: ['message', 'complete'] });
    let payOnComplete = { lawyerId: 'lawyer-2', name: 'Bola Second', amount: 40_000, delivered: true };
    const sent: unknown[] = [];
    let holding = false;
    const { release } = open(
      data,
      {
        'GET /job-api/admin/job/job-1': () => ({
          body: { status: 'success', message: 'ok', data: { job: { ...data.job, payOnComplete } } },
        }),
        'POST /job-api/jobs/job-1/actions/complete': (init) => {
          sent.push(JSON.parse(String(init?.body)));
          return { body: data };
        },
      },
      ({ url }) => holding && url.pathname === '/job-api/admin/job/job-1',
    );
    await screen.findByRole('heading', { name: 'A job' });
    await userEvent.click(screen.getByRole('button', { name: 'Mark as Completed' }));
    let dialog = await screen.findByRole('dialog', { name: 'Mark as Completed' });
    await within(dialog).findByText('Bola Second');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Go back' }));
    // The commission changed meanwhile; the answer to the reopened question is slow.
    payOnComplete = { lawyerId: 'lawyer-3', name: 'Chidi Third', amount: 35_000, delivered: true };
    holding = true;
    await userEvent.click(screen.getByRole('button', { name: 'Mark as Completed' }));
    dialog = await screen.findByRole('dialog', { name: 'Mark as Completed' });
    expect(dialog).not.toHaveTextContent('Bola Second');
    await pressBeforePayee(dialog, 'Chidi Third', release, sent);
    expect(sent[0]).toMatchObject({ payOnComplete: { lawyerId: 'lawyer-3', amount: 35_000 } });
  });

  it("an admin's Mark as Completed reopened stays unpressable when whom it pays fails to load again", async () => {
    const data = pageData({ viewer: 'admin', actions: ['message', 'complete'] });
    const payOnComplete = { lawyerId: 'lawyer-2', name: 'Bola Second', amount: 40_000, delivered: true };
    const sent: unknown[] = [];
    let down = false;
    open(data, {
      'GET /job-api/admin/job/job-1': () =>
        down
          ? { status: 503, body: { status: 'error', message: 'The service is busy.' } }
          : { body: { status: 'success', message: 'ok', data: { job: { ...data.job, payOnComplete } } } },
      'POST /job-api/jobs/job-1/actions/complete': (init) => {
        sent.push(JSON.parse(String(init?.body)));
        return { body: data };
      },
    });
    await screen.findByRole('heading', { name: 'A job' });
    await userEvent.click(screen.getByRole('button', { name: 'Mark as Completed' }));
    let dialog = await screen.findByRole('dialog', { name: 'Mark as Completed' });
    await within(dialog).findByText('Bola Second');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Go back' }));
    down = true;
    await userEvent.click(screen.getByRole('button', { name: 'Mark as Completed' }));
    dialog = await screen.findByRole('dialog', { name: 'Mark as Completed' });
    await within(dialog).findByText(/Could not load whom this completion pays/);
    const confirm = within(dialog).getByRole('button', { name: 'Mark as Completed' });
    expect(confirm).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(confirm);
    expect(sent).toEqual([]);
  });

  it('folds a 5,000-character message to its first lines on a phone, with a button that shows it whole', async () => {
    const long = 'Clause 14.2 needs the consent of seventy-five percent. '.repeat(100).slice(0, 5000);
    open(pageData({ events: [...pageData().events, event(4, { note: long })] }));
    const show = await screen.findByRole('button', { name: 'Show the whole message (5,000 characters)' });
    expect(show).toHaveAttribute('aria-expanded', 'false');
    const text = document.getElementById(show.getAttribute('aria-controls')!)!;
    expect(text).toHaveClass('line-clamp-10');
    // Folded by CSS only: the whole text is there for a screen reader.
    expect(text).toHaveTextContent(long.trim());
    await userEvent.click(show);
    expect(show).toHaveAttribute('aria-expanded', 'true');
    expect(show).toHaveTextContent('Show less');
    expect(text).not.toHaveClass('line-clamp-10');
    // A short message has no button.
    expect(screen.getAllByRole('button', { name: /Show the whole message|Show less/ })).toHaveLength(1);
  });

  it('folds a long message only where it is cut: no button when it fits, and Show less brings the button back into sight', async () => {
    const long = 'Clause 14.2 needs the consent of seventy-five percent. '.repeat(100).slice(0, 5000);
    // A wide desktop: the message's ten lines hold it all.
    let scrollHeight = 200;
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(() => 200);
    vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(() => scrollHeight);
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    try {
      open(pageData({ events: [...pageData().events, event(4, { note: long })] }));
      await screen.findByText(long.trim());
      expect(screen.queryByRole('button', { name: /Show the whole message/ })).not.toBeInTheDocument();
      cleanup();
      // A phone: the same message runs past its ten lines.
      scrollHeight = 4000;
      open(pageData({ events: [...pageData().events, event(4, { note: long })] }));
      const show = await screen.findByRole('button', { name: 'Show the whole message (5,000 characters)' });
      await userEvent.click(show);
      await userEvent.click(screen.getByRole('button', { name: 'Show less' }));
      expect(scrolled).toHaveBeenCalledWith({ block: 'nearest' });
      expect(scrolled.mock.contexts.at(-1)).toBe(show);
    } finally {
      delete (Element.prototype as Partial<Element>).scrollIntoView;
    }
  });

  it('counts a message by characters, as its button says: 400 emoji are not a long message', async () => {
    const emoji = '👍'.repeat(400);
    open(pageData({ events: [...pageData().events, event(4, { note: emoji })] }));
    await screen.findByText(emoji);
    expect(screen.queryByRole('button', { name: /Show the whole message/ })).not.toBeInTheDocument();
  });

  it('a send left on its way by going elsewhere: back on the job, the buttons wait and the sent text leaves the box', async () => {
    const sent: string[] = [];
    // Each message is held until the test lets it answer: a slow phone network.
    const { release } = openWithLinks(
      {
        'POST /job-api/jobs/job-1/actions/message': (init) => {
          const { note } = JSON.parse(String(init?.body)) as { note: string };
          sent.push(note);
          const mine = { _id: 'company-1', name: 'Ada Ventures', role: 'company' as const };
          const events = [...pageData().events, ...sent.map((n, i) => event(4 + i, { actor: mine, note: n }))];
          return { body: pageData({ events }) };
        },
      },
      sending,
    );
    const box = () => screen.getByRole('textbox', { name: /message/i });
    const away = async () => {
      await userEvent.click(screen.getByRole('link', { name: 'Dashboard' }));
      await screen.findByText('elsewhere');
    };
    const back = async () => {
      await userEvent.click(screen.getByRole('link', { name: 'The job' }));
      await screen.findByRole('heading', { name: 'A job' });
    };
    await screen.findByRole('heading', { name: 'A job' });

    // Back while the first message is still on its way: nothing can send it a second time.
    await userEvent.type(box(), 'Signed copy attached');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await away();
    await back();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send' })).toHaveAttribute('aria-busy', 'true');
    await act(async () => release());
    await waitFor(() => expect(box()).toHaveValue(''));
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();

    // Answered while away: back on the job, the message is in the thread and not in the box again.
    await userEvent.type(box(), 'One more thing');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await away();
    await act(async () => release());
    await back();
    expect(screen.getByText('One more thing')).toBeInTheDocument();
    await waitFor(() => expect(box()).toHaveValue(''));
    expect(localStorage.getItem('draft:company-1:job:job-1:note')).toBeNull();
    expect(sent).toEqual(['Signed copy attached', 'One more thing']);
  });

  it('keeps the message box and documents as sent while the send is on its way, also after going elsewhere', async () => {
    const sent: string[] = [];
    const { release } = openWithLinks(
      {
        'POST /job-api/jobs/job-1/actions/message': (init) => {
          sent.push((JSON.parse(String(init?.body)) as { note: string }).note);
          return { body: pageData() };
        },
      },
      sending,
    );
    const box = () => screen.getByRole('textbox', { name: /message/i });
    await screen.findByRole('heading', { name: 'A job' });
    await userEvent.type(box(), 'Signed copy attached');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(box()).toHaveAttribute('readonly'));
    expect(box()).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByLabelText('Attach a document')).toBeDisabled();
    await userEvent.click(screen.getByRole('link', { name: 'Dashboard' }));
    await screen.findByText('elsewhere');
    await userEvent.click(screen.getByRole('link', { name: 'The job' }));
    await screen.findByRole('heading', { name: 'A job' });
    // Typing meanwhile would make the sent text a new message, left in the box to be sent again.
    await userEvent.type(box(), ' and more');
    expect(box()).toHaveValue('Signed copy attached');
    await act(async () => release());
    await waitFor(() => expect(box()).toHaveValue(''));
    expect(box()).not.toHaveAttribute('readonly');
    expect(sent).toEqual(['Signed copy attached']);
  });

  it('a send refused while the user was elsewhere says so on coming back, beside the text it kept', async () => {
    const { release } = openWithLinks(
      { 'POST /job-api/jobs/job-1/actions/message': () => ({ status: 503, body: { message: 'Try again later' } }) },
      sending,
    );
    await screen.findByRole('heading', { name: 'A job' });
    await userEvent.type(screen.getByRole('textbox', { name: /message/i }), 'Signed copy attached');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await userEvent.click(screen.getByRole('link', { name: 'Dashboard' }));
    await screen.findByText('elsewhere');
    await act(async () => release());
    await userEvent.click(screen.getByRole('link', { name: 'The job' }));
    await screen.findByRole('heading', { name: 'A job' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Try again later');
    expect(screen.getByRole('textbox', { name: /message/i })).toHaveValue('Signed copy attached');
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
  });

  describe('drafts (decision 2226)', () => {
    const reload = () => cleanup();
    const noteKey = 'draft:company-1:job:job-1:note';

    it('keeps the message through a failed send and a reload, only for its user and job, and drops it once sent', async () => {
      const long = 'Please see clause 4.2: the vesting schedule must start from the date of incorporation.';
      let answers = 0;
      const send = {
        'POST /job-api/jobs/job-1/actions/message': () => {
          // The first send never reaches the server (the line drops); the second is answered.
          if (++answers === 1) throw new TypeError('Failed to fetch');
          return { body: pageData() };
        },
      };
      open(pageData(), send);
      await screen.findByRole('heading', { name: 'A job' });
      await userEvent.type(screen.getByRole('textbox', { name: /message/i }), long);
      await userEvent.click(screen.getByRole('button', { name: 'Send' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Session timeout, please login again');
      expect(screen.getByRole('textbox', { name: /message/i })).toHaveValue(long);

      // The page is loaded again: the text is back, as typed.
      reload();
      open(pageData(), send);
      await screen.findByRole('heading', { name: 'A job' });
      expect(screen.getByRole('textbox', { name: /message/i })).toHaveValue(long);

      // Another account on the same phone, or another job, finds an empty box.
      reload();
      setSession({ userToken: 't2', userType: 'lawyer', userId: 'lawyer-1' });
      vi.stubGlobal('fetch', jsonFetch({ 'GET /job-api/jobs/job-1': () => ({ body: pageData() }) }).fn);
      renderPage(<JobPage />, { path: '/jobs/:jobId', at: '/jobs/job-1' });
      await screen.findByRole('heading', { name: 'A job' });
      expect(screen.getByRole('textbox', { name: /message/i })).toHaveValue('');
      reload();
      setSession({ userToken: 't', userType: 'company', userId: 'company-1' });
      vi.stubGlobal('fetch', jsonFetch({ 'GET /job-api/jobs/job-2': () => ({ body: pageData() }) }).fn);
      renderPage(<JobPage />, { path: '/jobs/:jobId', at: '/jobs/job-2' });
      await screen.findByRole('heading', { name: 'A job' });
      expect(screen.getByRole('textbox', { name: /message/i })).toHaveValue('');

      reload();
      open(pageData(), send);
      await screen.findByRole('heading', { name: 'A job' });
      await userEvent.click(screen.getByRole('button', { name: 'Send' }));
      await vi.waitFor(() => expect(screen.getByRole('textbox', { name: /message/i })).toHaveValue(''));
      expect(localStorage.getItem(noteKey)).toBeNull();
      reload();
      open(pageData(), send);
      await screen.findByRole('heading', { name: 'A job' });
      expect(screen.getByRole('textbox', { name: /message/i })).toHaveValue('');
    });

    it('keeps the documents of a delivery, and sends again after a reload with the same key', async () => {
      localStorage.setItem(
        'draft:company-1:job:job-1:files',
        JSON.stringify([{ url: '/uploads/contract.pdf', fileName: 'contract-final.pdf' }]),
      );
      let answers = 0;
      const send = {
        'POST /job-api/jobs/job-1/actions/message': () =>
          // The first answer is lost on its way back: the user cannot tell whether it was taken.
          ++answers === 1 ? { status: 502, body: { message: 'Bad gateway' } } : { body: pageData() },
      };
      const first = open(pageData(), send);
      await screen.findByRole('heading', { name: 'A job' });
      expect(screen.getByText('contract-final.pdf')).toBeInTheDocument();
      await userEvent.type(screen.getByRole('textbox', { name: /message/i }), 'The signed version');
      await userEvent.click(screen.getByRole('button', { name: 'Send' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Bad gateway');

      reload();
      const second = open(pageData(), send);
      await screen.findByRole('heading', { name: 'A job' });
      expect(screen.getByText('contract-final.pdf')).toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', { name: 'Send' }));
      await vi.waitFor(() => expect(answers).toBe(2));
      const body = (c: { url: URL; init?: RequestInit }) =>
        JSON.parse(String(c.init?.body)) as { key: string; note: string; files: unknown };
      const [a] = first.calls.filter((c) => c.url.pathname.endsWith('/actions/message')).map(body);
      const [b] = second.calls.filter((c) => c.url.pathname.endsWith('/actions/message')).map(body);
      expect(b).toEqual(a);
      expect(b.files).toEqual([{ url: '/uploads/contract.pdf', name: 'contract-final.pdf' }]);
      await vi.waitFor(() => expect(screen.queryByText('contract-final.pdf')).not.toBeInTheDocument());
      const kept = Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i) ?? '');
      expect(kept.filter((k) => k.startsWith('draft:'))).toEqual([]);
    });
  });
});

// Decision 2336: the 5,000 characters are counted as the reader counts them, not in UTF-16 units.
describe('/jobs/:jobId message length', { timeout: 30_000 }, () => {
  it('counts an emoji or a Yoruba letter with its marks as one character and sends 3,000 of them whole', async () => {
    const { calls } = open(pageData(), { 'POST /job-api/jobs/job-1/actions/message': () => ({ body: pageData() }) });
    await screen.findByRole('heading', { name: 'A job' });
    const box = screen.getByRole('textbox', { name: /message/i });
    // 2,000 emoji (two UTF-16 units each) and 1,000 ẹ́ typed apart (e, dot below, acute: three units).
    const note = `${'🙏'.repeat(2000)}${'e\u0323\u0301'.repeat(1000)}`;
    await userEvent.click(box);
    await userEvent.paste(note);
    expect(box).toHaveValue(note);
    expect(screen.getByText('3,000 / 5,000')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(calls.some((c) => c.url.pathname.endsWith('/actions/message'))).toBe(true));
    const sent = calls.find((c) => c.url.pathname.endsWith('/actions/message'))!;
    expect((JSON.parse(String(sent.init?.body)) as { note: string }).note).toBe(note);
    expect(screen.queryByText(messages.messageTooLong)).not.toBeInTheDocument();
  });

  it('still refuses 5,001 characters before sending, in the thread’s words', async () => {
    const { calls } = open(pageData());
    await screen.findByRole('heading', { name: 'A job' });
    await userEvent.click(screen.getByRole('textbox', { name: /message/i }));
    await userEvent.paste('🙏'.repeat(5001));
    expect(screen.getByText('5,001 / 5,000')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(messages.messageTooLong)).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname.includes('/actions/'))).toBe(false);
  });
});

// Issue 16 lists the reassignment among the timeline's events: a hand-over (decision 2310) read as a
// second "assigned the job to a lawyer".
describe('/jobs/:jobId timeline of a job passed on', { timeout: 30_000 }, () => {
  it('tells the first assignment from the hand-over to another lawyer', async () => {
    const admin = { _id: 'admin-1', name: 'Admin (admin)', role: 'admin' as const };
    open(
      pageData({
        events: [
          event(1, { action: 'assign', actor: admin, note: null, fromStage: 'unassigned' }),
          event(2, {
            action: 'assign',
            actor: admin,
            note: null,
            fromStage: 'changes_requested',
            toStage: 'changes_requested',
            createdAt: '2026-11-24T10:00:00.000Z',
          }),
        ],
      }),
    );
    await screen.findByRole('heading', { name: 'A job' });
    expect(screen.getAllByText(/assigned the job to a lawyer/)).toHaveLength(1);
    expect(screen.getByText(/passed the job to another lawyer/)).toBeInTheDocument();
  });
});
