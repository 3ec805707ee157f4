import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@legalmarket/contracts/messages';
import { jobFixture } from '@/test/job-fixture';
import { setSession } from '@/lib/session';
import { finishUpload, stubHeldUploads } from '@/test/instant-upload';
import { heldFetch, sendThenOpenAnother } from '@/test/held-fetch';
import { jsonFetch, renderPage, testQueryClient } from '@/test/render';
import CompanyDashboardPage from './dashboard-page';
import { companyKeys } from './api/keys';

const JOB_ID = '22222222-2222-4222-8222-222222222222';

/** What the dashboard asks for around a sent form: the pending jobs again, and the support contacts. */
const pageRoutes = {
  'GET /job-api/company/pendingjobs': () => ({ body: [] }),
  'GET /api/public-config': () => ({
    body: { supportPhone: '234', supportEmail: 'a@b.c', paymentProvider: 'sandbox' },
  }),
};

function open() {
  const client = testQueryClient();
  client.setQueryData(companyKeys.jobs('pending'), [
    jobFixture({ _id: JOB_ID, status: 'pending', lawyerRequestedDetail: 'Send the CAC forms, please.' }),
  ]);
  client.setQueryData(companyKeys.orders(), []);
  renderPage(<CompanyDashboardPage />, { client });
}

describe('Give more details (react-hook-form with the contract schema)', () => {
  it('refuses blank text with the schema message, tied to the field', async () => {
    open();
    await userEvent.click(screen.getByRole('button', { name: 'Give more details' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Your details'), '   ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText(messages.kindlyAddDetails)).toBeVisible();
    const text = within(dialog).getByLabelText('Your details');
    expect(text).toHaveAttribute('aria-invalid', 'true');
    expect(text).toHaveAccessibleDescription(messages.kindlyAddDetails);
  });

  it('states the document types and size limit before one is picked', async () => {
    open();
    await userEvent.click(screen.getByRole('button', { name: 'Give more details' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Attach a document (optional)')).toHaveAccessibleDescription(
      'PDF, Word (DOC, DOCX) or a picture, at most 10 MB.',
    );
  });

  it('sends the trimmed text and shows the answer', async () => {
    const api = jsonFetch({
      [`PUT /job-api/company/editjobdetails/${JOB_ID}`]: () => ({ body: { status: 'success', message: 'Sent!' } }),
      ...pageRoutes,
    });
    vi.stubGlobal('fetch', api.fn);
    open();
    await userEvent.click(screen.getByRole('button', { name: 'Give more details' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Your details'), '  The forms are attached.  ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('heading', { name: 'Sent!' })).toBeVisible();
    const put = api.calls.find((c) => c.method === 'PUT');
    expect(JSON.parse(String(put?.init?.body))).toEqual({ detail: 'The forms are attached.' });
  });
});

describe('Give more details keeps what is typed (decision 2226)', () => {
  it('through a failed send and a closed dialog, and drops it once sent', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    let puts = 0;
    const api = jsonFetch({
      [`PUT /job-api/company/editjobdetails/${JOB_ID}`]: () =>
        ++puts === 1
          ? { status: 500, body: { message: 'Internal Server Error' } }
          : { body: { status: 'success', message: 'Sent!' } },
      ...pageRoutes,
    });
    vi.stubGlobal('fetch', api.fn);
    const text = 'The CAC forms are with our company secretary; she sends them on Monday with the board minutes.';
    open();
    await userEvent.click(screen.getByRole('button', { name: 'Give more details' }));
    let dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Your details'), text);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Internal Server Error')).toBeVisible();
    expect(within(dialog).getByLabelText('Your details')).toHaveValue(text);

    // A stray tap closes the dialog; opening it again finds the text.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByLabelText('Your details')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Give more details' }));
    dialog = await screen.findByRole('dialog');
    await vi.waitFor(() => expect(within(dialog).getByLabelText('Your details')).toHaveValue(text));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('heading', { name: 'Sent!' })).toBeVisible();
    expect(localStorage.getItem(`draft:c1:details:${JOB_ID}`)).toBeNull();
  });
});

describe('Give more details closed while on its way', () => {
  it('stays busy when opened again, then says it was sent and drops the draft', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    let puts = 0;
    // The details are held until the test lets them answer: a slow phone network.
    const { fn, release } = heldFetch(
      {
        ...pageRoutes,
        [`PUT /job-api/company/editjobdetails/${JOB_ID}`]: () => {
          puts++;
          return { body: { status: 'success', message: 'Sent!' } };
        },
      },
      ({ method }) => method === 'PUT',
    );
    vi.stubGlobal('fetch', fn);
    open();
    await userEvent.click(screen.getByRole('button', { name: 'Give more details' }));
    let dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Your details'), 'The forms are attached.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    // A tap beside the dialog closes it while the details are on their way; it is opened again.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await userEvent.click(screen.getByRole('button', { name: 'Give more details' }));
    dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await act(async () => release());
    expect(await screen.findByRole('heading', { name: 'Sent!' })).toBeVisible();
    expect(localStorage.getItem(`draft:c1:details:${JOB_ID}`)).toBeNull();
    expect(puts).toBe(1);
  });
});

describe('the Notifications card follows the lifecycle table', () => {
  it('offers no Give more details on a delivered job, whose details route answers 409', async () => {
    const client = testQueryClient();
    client.setQueryData(companyKeys.jobs('pending'), [
      jobFixture({
        _id: JOB_ID,
        status: 'pending',
        stage: 'delivered',
        productId: {
          _id: 'p',
          productName: 'Delivered job',
          productImage: '',
          productPrice: 1000,
          productDescription: '',
        },
        lawyerRequestedDetail: 'Send the CAC forms, please.',
      }),
      jobFixture({
        _id: 'job-2',
        status: 'pending',
        stage: 'changes_requested',
        productId: {
          _id: 'q',
          productName: 'Reworked job',
          productImage: '',
          productPrice: 1000,
          productDescription: '',
        },
        lawyerRequestedDetail: 'Which clause?',
      }),
    ]);
    client.setQueryData(companyKeys.orders(), []);
    renderPage(<CompanyDashboardPage />, { client });
    const card = screen.getByRole('complementary', { name: 'Notifications' });
    expect(within(card).getAllByRole('button', { name: 'Give more details' })).toHaveLength(1);
    expect(within(card).getByText('Reworked job')).toBeVisible();
    expect(within(card).queryByText('Delivered job')).toBeNull();
  });
});

describe('Give more details for one job while another job’s are on their way', () => {
  const OTHER_ID = '33333333-3333-4333-8333-333333333333';
  async function sendForFirstThenOpenSecond(reply: { status: number; body: unknown }) {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    const { fn, release } = heldFetch(
      { ...pageRoutes, [`PUT /job-api/company/editjobdetails/${JOB_ID}`]: () => reply },
      ({ method }) => method === 'PUT',
    );
    vi.stubGlobal('fetch', fn);
    const client = testQueryClient();
    const withRequest = (_id: string, productName: string) =>
      jobFixture({
        _id,
        status: 'pending',
        productId: { _id: `p-${_id}`, productName, productImage: '', productPrice: 1000, productDescription: '' },
        lawyerRequestedDetail: `Details for ${productName}, please.`,
      });
    client.setQueryData(companyKeys.jobs('pending'), [
      withRequest(JOB_ID, 'First job'),
      withRequest(OTHER_ID, 'Second job'),
    ]);
    client.setQueryData(companyKeys.orders(), []);
    renderPage(<CompanyDashboardPage />, { client });
    const [first, second] = screen.getAllByRole('button', { name: 'Give more details' });
    const dialog = await sendThenOpenAnother(first, second, 'Your details', 'For the first job.');
    expect(within(dialog).getByText('Details for Second job, please.')).toBeVisible();
    await userEvent.type(within(dialog).getByLabelText('Your details'), 'For the second job.');
    await act(async () => release());
    return dialog;
  }

  it('does not show the first job’s refusal in the second job’s dialog', async () => {
    const dialog = await sendForFirstThenOpenSecond({ status: 500, body: { message: 'Internal Server Error' } });
    await vi.waitFor(() => expect(within(dialog).getByRole('button', { name: 'Send' })).toBeEnabled());
    expect(within(dialog).queryByText('Internal Server Error')).toBeNull();
    expect(within(dialog).getByLabelText('Your details')).toHaveValue('For the second job.');
  });

  it('does not replace the second job’s dialog with the first job’s Sent!', async () => {
    const dialog = await sendForFirstThenOpenSecond({ status: 200, body: { status: 'success', message: 'Sent!' } });
    await vi.waitFor(() => expect(localStorage.getItem(`draft:c1:details:${JOB_ID}`)).toBeNull());
    expect(screen.queryByRole('heading', { name: 'Sent!' })).toBeNull();
    expect(within(dialog).getByLabelText('Your details')).toHaveValue('For the second job.');
  });
});

describe('Give more details keeps an uploaded document (decision 2292)', () => {
  it('through a closed dialog, and sends it', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    const api = jsonFetch({
      [`PUT /job-api/company/editjobdetails/${JOB_ID}`]: () => ({ body: { status: 'success', message: 'Sent!' } }),
      'GET /job-api/company/pendingjobs': () => ({ body: [] }),
      'GET /api/public-config': () => ({
        body: { supportPhone: '234', supportEmail: 'a@b.c', paymentProvider: 'sandbox' },
      }),
    });
    vi.stubGlobal('fetch', api.fn);
    // The upload goes by XMLHttpRequest (for its progress): this one answers at once.
    class Xhr {
      upload = { onprogress: null };
      status = 201;
      responseText = JSON.stringify({ status: 'success', data: { fileName: 'cac-forms.pdf', url: '/uploads/k2.pdf' } });
      onload: (() => void) | null = null;
      open() {}
      setRequestHeader() {}
      send() {
        queueMicrotask(() => this.onload?.());
      }
    }
    vi.stubGlobal('XMLHttpRequest', Xhr);
    open();
    await userEvent.click(screen.getByRole('button', { name: 'Give more details' }));
    let dialog = await screen.findByRole('dialog');
    await userEvent.upload(
      within(dialog).getByLabelText('Attach a document (optional)'),
      new File(['%PDF-1.4'], 'cac-forms.pdf', { type: 'application/pdf' }),
    );
    expect(await within(dialog).findByRole('button', { name: 'Remove cac-forms.pdf' })).toBeVisible();

    // A stray tap closes the dialog; opening it again finds the document.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await userEvent.click(screen.getByRole('button', { name: 'Give more details' }));
    dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByRole('button', { name: 'Remove cac-forms.pdf' })).toBeVisible();
    await userEvent.type(within(dialog).getByLabelText('Your details'), 'The forms are attached.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('heading', { name: 'Sent!' })).toBeVisible();
    const put = api.calls.find((c) => c.method === 'PUT');
    expect(JSON.parse(String(put?.init?.body))).toMatchObject({ file: '/uploads/k2.pdf', fileName: 'cac-forms.pdf' });
    expect(localStorage.getItem(`draft:c1:details:${JOB_ID}`)).toBeNull();
  });
});

describe('Give more details with a document on its way (decision 2293)', () => {
  it('stays open at a tap beside it until the upload is done', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    // An upload the test answers by hand.
    const uploads = stubHeldUploads();
    open();
    await userEvent.click(screen.getByRole('button', { name: 'Give more details' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.upload(
      within(dialog).getByLabelText('Attach a document (optional)'),
      new File(['%PDF-1.4'], 'board-minutes.pdf', { type: 'application/pdf' }),
    );
    expect(await within(dialog).findByRole('progressbar')).toBeVisible();

    fireEvent.click(dialog);
    expect(within(dialog).getByRole('progressbar')).toBeVisible();
    act(() => finishUpload(uploads[0], { fileName: 'board-minutes.pdf', url: '/uploads/k4.pdf' }));
    expect(await within(dialog).findByRole('button', { name: 'Remove board-minutes.pdf' })).toBeVisible();

    // Done, a tap beside it closes it as before.
    fireEvent.click(dialog);
    await waitFor(() => expect(within(dialog).queryByLabelText('Your details')).toBeNull());
  });
});
