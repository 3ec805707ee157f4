import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import type { JobViewResponse } from '@legalmarket/contracts/jobs';
import { messages } from '@legalmarket/contracts/messages';
import { jobFixture } from '@/test/job-fixture';
import { setSession } from '@/lib/session';
import { finishUpload, stubHeldUploads } from '@/test/instant-upload';
import { heldFetch } from '@/test/held-fetch';
import { jsonFetch, testQueryClient } from '@/test/render';
import { AddDetailsModal, JobModal } from './job-modals';

/** Signs the admin in; every request waits until `release`, then `PUT path` answers `body`. */
function holdPut(path: string, body: unknown) {
  setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
  const stub = heldFetch({ [`PUT ${path}`]: () => ({ body }) }, () => true);
  vi.stubGlobal('fetch', stub.fn);
  return stub;
}

/** Renders the dialog `modal` makes for `job`; the function returned shows it for another job, or none. */
function renderModal(modal: (job: JobViewResponse | null) => ReactNode, job: JobViewResponse) {
  const client = testQueryClient();
  const ui = (shown: JobViewResponse | null) => (
    <QueryClientProvider client={client}>
      <MemoryRouter>{modal(shown)}</MemoryRouter>
    </QueryClientProvider>
  );
  const view = render(ui(job));
  return (shown: JobViewResponse | null) => view.rerender(ui(shown));
}

const addDetails = (job: JobViewResponse | null) => (
  <AddDetailsModal job={job} onClose={() => undefined} onDone={() => undefined} />
);

function open() {
  renderModal(
    addDetails,
    jobFixture({ _id: '11111111-1111-4111-8111-111111111111', adminDetail: null, adminFile: null }),
  );
}

describe('Add details form (react-hook-form with the contract schema)', () => {
  it('refuses Send without text or document and says so once', async () => {
    open();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(messages.kindlyAddDetails)).toBeVisible();
  });

  it('still asks for the document when only blank text is typed', async () => {
    open();
    await userEvent.type(screen.getByLabelText('Give more details'), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(messages.kindlyAddDetails)).toBeVisible();
    // The schema's error on the text is tied to the field for screen readers.
    const text = screen.getByLabelText('Give more details');
    expect(text).toHaveAttribute('aria-invalid', 'true');
    expect(text).toHaveAccessibleDescription(messages.kindlyAddDetails);
  });
});

describe('Add details keeps what is typed (decision 2226)', () => {
  const ID = '11111111-1111-4111-8111-111111111111';
  const show = () => {
    renderModal(
      addDetails,
      jobFixture({ _id: ID, adminDetail: null, adminFile: '/uploads/brief.pdf', adminFileName: 'brief.pdf' }),
    );
  };

  it('through a failed send and a reload; Cancel drops it', async () => {
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        [`PUT /job-api/editjobdetails/${ID}`]: () => ({ status: 500, body: { message: 'Internal Server Error' } }),
      }).fn,
    );
    const text = 'The company confirmed the lease runs from January; the rent review clause is in schedule 2.';
    show();
    await userEvent.type(screen.getByLabelText('Give more details'), text);
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Internal Server Error')).toBeVisible();
    expect(screen.getByLabelText('Give more details')).toHaveValue(text);

    cleanup();
    show();
    await vi.waitFor(() => expect(screen.getByLabelText('Give more details')).toHaveValue(text));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(localStorage.getItem(`draft:a1:admin-details:${ID}`)).toBeNull();
    cleanup();
    show();
    expect(screen.getByLabelText('Give more details')).toHaveValue('');
  });
});

describe('Add details closed while on its way (decision 2281)', () => {
  const A = '11111111-1111-4111-8111-111111111111';
  const B = '22222222-2222-4222-8222-222222222222';
  const jobA = jobFixture({ _id: A, adminDetail: null, adminFile: '/uploads/brief.pdf', adminFileName: 'brief.pdf' });
  const jobB = jobFixture({ _id: B, adminDetail: null, adminFile: '/uploads/lease.pdf', adminFileName: 'lease.pdf' });
  const setup = () => {
    const { sent, release } = holdPut(`/job-api/editjobdetails/${A}`, {
      status: 'success',
      message: 'Edited successfully',
      data: jobA,
    });
    const onDone = vi.fn();
    const show = renderModal((job) => <AddDetailsModal job={job} onClose={() => undefined} onDone={onDone} />, jobA);
    return { sent, respond: release, onDone, show };
  };

  it('keeps Send busy when opened again, sends once, and its answer leaves another job alone', async () => {
    const { sent, respond, onDone, show } = setup();
    await userEvent.type(screen.getByLabelText('Give more details'), 'The lease runs from January.');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    show(null);
    show(jobA);
    const busy = screen.getByRole('button', { name: /Send/ });
    expect(busy).toBeDisabled();
    await userEvent.click(busy);
    expect(sent).toEqual([`/job-api/editjobdetails/${A}`]);

    // Opened for another job meanwhile: A's answer says nothing there and leaves B's text as typed.
    show(jobB);
    await userEvent.type(screen.getByLabelText('Give more details'), 'Schedule 2');
    respond();
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled());
    expect(onDone).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Give more details')).toHaveValue('Schedule 2');
    expect(localStorage.getItem(`draft:a1:admin-details:${A}`)).toBeNull();
  });

  it('still says it was sent when answered after the dialog closed', async () => {
    const { respond, onDone, show } = setup();
    await userEvent.type(screen.getByLabelText('Give more details'), 'The lease runs from January.');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    show(null);
    respond();
    await vi.waitFor(() => expect(onDone).toHaveBeenCalledWith('Edited successfully'));
    expect(localStorage.getItem(`draft:a1:admin-details:${A}`)).toBeNull();
  });
});

describe('Mark as Completed closed while on its way (decision 2281)', () => {
  const A = '33333333-3333-4333-8333-333333333333';
  const B = '44444444-4444-4444-8444-444444444444';
  const lawyer = { _id: 'l1', name: 'Chidi Okeke', officialEmail: '', phoneNumber: '' };
  const jobA = jobFixture({ _id: A, status: 'pending', assignedTo: [lawyer] as never });
  const jobB = jobFixture({ _id: B, status: 'pending', assignedTo: [lawyer] as never });
  const setup = () => {
    const { sent, release } = holdPut(`/job-api/completejob/${A}`, {
      status: 'success',
      message: 'Job completed',
      data: jobA,
    });
    const onDone = vi.fn();
    const onClose = vi.fn();
    const show = renderModal((job) => <JobModal job={job} onClose={onClose} onDone={onDone} />, jobA);
    return { sent, respond: release, onDone, onClose, show };
  };

  it('stays ticked and busy when opened again, completes once, and its answer leaves another job open', async () => {
    const { sent, respond, onDone, onClose, show } = setup();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Mark as Completed' }));
    await userEvent.click(screen.getByRole('button', { name: /Mark as Completed/ }));
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    // The question closed, then the dialog, while the completion is on its way.
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    show(null);
    show(jobA);
    const tick = screen.getByRole('checkbox', { name: 'Mark as Completed' });
    expect(tick).toBeDisabled();
    expect(tick).toBeChecked();
    await userEvent.click(tick);
    expect(sent).toEqual([`/job-api/completejob/${A}`]);

    // Opened for another job meanwhile: A's answer is told, and B's dialog stays open, unticked.
    show(jobB);
    onClose.mockClear();
    respond();
    await vi.waitFor(() => expect(onDone).toHaveBeenCalledWith('Job completed'));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('checkbox', { name: 'Mark as Completed' })).not.toBeChecked();
    cleanup();
  });
});

describe('Add details with a document on its way (decision 2293)', () => {
  it('stays open at a click beside it until the upload is done', async () => {
    setSession({ userToken: 't', userType: 'admin', userId: 'a1' });
    const uploads = stubHeldUploads();
    const onClose = vi.fn();
    const job = jobFixture({ _id: '11111111-1111-4111-8111-111111111111', adminDetail: null, adminFile: null });
    render(
      <QueryClientProvider client={testQueryClient()}>
        <MemoryRouter>
          <AddDetailsModal job={job} onClose={onClose} onDone={() => undefined} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await userEvent.upload(
      screen.getByLabelText('Document'),
      new File(['%PDF-1.4'], 'engagement-letter.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByRole('progressbar')).toBeVisible();
    fireEvent.click(screen.getByRole('dialog'));
    expect(onClose).not.toHaveBeenCalled();

    act(() => finishUpload(uploads[0], { fileName: 'engagement-letter.pdf', url: '/uploads/k5.pdf' }));
    expect(await screen.findByRole('button', { name: 'Remove engagement-letter.pdf' })).toBeVisible();
    fireEvent.click(screen.getByRole('dialog'));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
