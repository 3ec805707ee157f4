import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PlanView } from '@legalmarket/contracts/plans';
import { setSession } from '@/lib/session';
import { stubInstantUpload } from '@/test/instant-upload';
import { jsonFetch, renderPage } from '@/test/render';
import PlanPage from './plan-page';

const plan = (over: Partial<PlanView> = {}): PlanView => ({
  _id: 'p1',
  tier: 'silver',
  tierName: 'Silver',
  price: 80_000,
  status: 'active',
  percentOff: 10,
  periodStart: '2026-11-25T10:00:00.000Z',
  renewsAt: '2026-12-25T10:00:00.000Z',
  cancelAtPeriodEnd: false,
  nextTier: null,
  graceUntil: null,
  credits: { review: 2, draft: 3, opinion: 1, policy: 1 },
  creditsUsed: { review: 0, draft: 0, opinion: 0, policy: 0 },
  included: { review: 2, draft: 3, opinion: 1, policy: 1 },
  events: [{ kind: 'subscribed', note: 'Silver plan started; ₦80,000 paid', at: '2026-11-25T10:00:00.000Z' }],
  jobs: [],
  ...over,
});

describe('/company/plan', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the credits without carry-over and spends a draft credit with its details', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    let current = plan();
    const api = jsonFetch({
      'GET /api/plans/mine': () => ({ body: { status: 'success', data: current } }),
      'POST /api/plans/mine/requests': () => {
        current = plan({
          credits: { ...current.credits, draft: 2 },
          creditsUsed: { ...current.creditsUsed, draft: 1 },
        });
        return {
          status: 201,
          body: {
            status: 'success',
            message: 'Your request is in the job workspace',
            data: { jobId: 'j1', plan: current },
          },
        };
      },
    });
    vi.stubGlobal('fetch', api.fn);
    renderPage(<PlanPage />);
    expect(await screen.findByTestId('credits-left-draft')).toHaveTextContent('3');
    expect(screen.getAllByText('Unused credits do not carry over: they reset at each renewal.').length).toBeGreaterThan(
      0,
    );
    expect(screen.getByText('10% off all single products while it is active.')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Kind of work'), 'draft');
    await user.type(screen.getByLabelText('Give details'), 'A supply agreement');
    await user.click(screen.getByRole('button', { name: 'Request with a credit' }));
    expect(await screen.findByText(/Your request is in the job workspace/)).toBeInTheDocument();
    expect(screen.getByTestId('credits-left-draft')).toHaveTextContent('2');
    const sent = api.calls.find((c) => c.method === 'POST');
    expect(JSON.parse(String(sent?.init?.body))).toMatchObject({ kind: 'draft', detail: 'A supply agreement' });
  });

  it('sends a credit request again under its key after a lost answer, and new work under a new key', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    let answered = 0;
    const api = jsonFetch({
      'GET /api/plans/mine': () => ({ body: { status: 'success', data: plan() } }),
      'POST /api/plans/mine/requests': () =>
        ++answered === 1
          ? { status: 502, body: { status: 'error', message: 'Bad gateway' } }
          : {
              status: 201,
              body: {
                status: 'success',
                message: 'Your request is in the job workspace',
                data: { jobId: `j${answered}`, plan: plan() },
              },
            },
    });
    vi.stubGlobal('fetch', api.fn);
    renderPage(<PlanPage />);
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Kind of work'), 'draft');
    await user.type(screen.getByLabelText('Give details'), 'A supply agreement');
    const send = screen.getByRole('button', { name: 'Request with a credit' });
    await user.click(send);
    expect(await screen.findByText('Bad gateway')).toBeInTheDocument();
    await user.click(send);
    expect(await screen.findByText(/Your request is in the job workspace/)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Give details'), 'A lease');
    await user.click(send);
    await vi.waitFor(() => expect(answered).toBe(3));
    const keys = api.calls
      .filter((c) => c.method === 'POST')
      .map((c) => (JSON.parse(String(c.init?.body)) as { key?: string }).key);
    expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('keeps the brief of a credit request through a failed send and a reload, and drops it once made (decision 2226)', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    let answered = 0;
    const api = jsonFetch({
      'GET /api/plans/mine': () => ({ body: { status: 'success', data: plan() } }),
      'POST /api/plans/mine/requests': () =>
        ++answered === 1
          ? { status: 500, body: { status: 'error', message: 'Internal Server Error' } }
          : {
              status: 201,
              body: {
                status: 'success',
                message: 'Your request is in the job workspace',
                data: { jobId: 'j1', plan: plan() },
              },
            },
    });
    vi.stubGlobal('fetch', api.fn);
    const brief = 'A supply agreement with our cassava farmers in Ogun, paid monthly, for two years.';
    renderPage(<PlanPage />);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Give details'), brief);
    await user.click(screen.getByRole('button', { name: 'Request with a credit' }));
    expect(await screen.findByText('Internal Server Error')).toBeInTheDocument();
    expect(screen.getByLabelText('Give details')).toHaveValue(brief);

    cleanup();
    renderPage(<PlanPage />);
    await vi.waitFor(async () => expect(await screen.findByLabelText('Give details')).toHaveValue(brief));
    await user.click(screen.getByRole('button', { name: 'Request with a credit' }));
    expect(await screen.findByText(/Your request is in the job workspace/)).toBeInTheDocument();
    expect(screen.getByLabelText('Give details')).toHaveValue('');
    expect(localStorage.getItem('draft:c1:plan-request')).toBeNull();
  });

  it('keeps the document of a credit request through a reload, and sends it (decision 2292)', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    const api = jsonFetch({
      'GET /api/plans/mine': () => ({ body: { status: 'success', data: plan() } }),
      'POST /api/plans/mine/requests': () => ({
        status: 201,
        body: {
          status: 'success',
          message: 'Your request is in the job workspace',
          data: { jobId: 'j1', plan: plan() },
        },
      }),
    });
    vi.stubGlobal('fetch', api.fn);
    stubInstantUpload({ fileName: 'supply-terms.docx', url: '/uploads/k3.docx' });
    renderPage(<PlanPage />);
    const user = userEvent.setup();
    await user.upload(
      await screen.findByLabelText('Upload a document (optional)'),
      new File(['PK'], 'supply-terms.docx', {
        type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      }),
    );
    expect(await screen.findByRole('button', { name: 'Remove supply-terms.docx' })).toBeVisible();

    cleanup();
    renderPage(<PlanPage />);
    expect(await screen.findByRole('button', { name: 'Remove supply-terms.docx' })).toBeVisible();
    await user.type(screen.getByLabelText('Give details'), 'Our supply terms, for review.');
    await user.click(screen.getByRole('button', { name: 'Request with a credit' }));
    expect(await screen.findByText(/Your request is in the job workspace/)).toBeInTheDocument();
    const post = api.calls.find((c) => c.method === 'POST');
    expect(JSON.parse(String(post?.init?.body))).toMatchObject({
      file: '/uploads/k3.docx',
      fileName: 'supply-terms.docx',
    });
    expect(localStorage.getItem('draft:c1:plan-request')).toBeNull();
  });

  it('sends a credit request again under the same key after a lost answer and a reload (decision 2240)', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    let posts = 0;
    const api = jsonFetch({
      'GET /api/plans/mine': () => ({ body: { status: 'success', data: plan() } }),
      'POST /api/plans/mine/requests': () => {
        // The first reaches the server, which opens the job; its answer is lost on the way back.
        if (++posts === 1) throw new TypeError('Failed to fetch');
        return {
          status: 201,
          body: {
            status: 'success',
            message: 'Your request is in the job workspace',
            data: { jobId: 'j1', plan: plan() },
          },
        };
      },
    });
    vi.stubGlobal('fetch', api.fn);
    renderPage(<PlanPage />);
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Kind of work'), 'draft');
    await user.type(screen.getByLabelText('Give details'), 'A supply agreement');
    await user.click(screen.getByRole('button', { name: 'Request with a credit' }));
    expect(await screen.findByText('Session timeout, please login again')).toBeInTheDocument();

    cleanup();
    renderPage(<PlanPage />);
    await vi.waitFor(async () =>
      expect(await screen.findByLabelText('Give details')).toHaveValue('A supply agreement'),
    );
    await user.selectOptions(screen.getByLabelText('Kind of work'), 'draft');
    await user.click(screen.getByRole('button', { name: 'Request with a credit' }));
    expect(await screen.findByText(/Your request is in the job workspace/)).toBeInTheDocument();
    const keys = api.calls
      .filter((c) => c.method === 'POST')
      .map((c) => (JSON.parse(String(c.init?.body)) as { key?: string }).key);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(localStorage.getItem('draft:c1:plan-request:key')).toBeNull();
  });

  it('offers the tiers to subscribe to when there is no plan, preselecting the one asked for', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    vi.stubGlobal(
      'fetch',
      jsonFetch({ 'GET /api/plans/mine': () => ({ body: { status: 'success', data: null } }) }).fn,
    );
    renderPage(<PlanPage />, { path: '/company/plan', at: '/company/plan?tier=gold' });
    expect(await screen.findByRole('radio', { name: /^Gold/ })).toBeChecked();
    expect(screen.getByRole('button', { name: /Subscribe to Gold/ })).toBeInTheDocument();
  });
});
