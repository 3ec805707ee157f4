import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { JobPageResponse } from '@legalmarket/contracts/jobs';
import { setSession } from '@/lib/session';
import { jobFixture } from '@/test/job-fixture';
import { stubInstantUpload } from '@/test/instant-upload';
import { jsonFetch, renderPage } from '@/test/render';
import JobPage from './job-page';

const data: JobPageResponse = {
  job: {
    ...jobFixture({ status: 'pending' }),
    stage: 'in_progress',
    dueAt: '2026-12-04T22:59:59.000Z',
    late: false,
    assignedTo: [{ _id: 'lawyer-1', name: 'Tunde Bakare', officialEmail: '', phoneNumber: '' }],
  },
  viewer: 'company',
  actions: ['message'],
  events: [],
  earlier: false,
  lastReadEventId: '0',
  planCredit: false,
  deliveries: 0,
};

describe('/jobs/{id} a document removed from the composer by mistake', { timeout: 30_000 }, () => {
  it('comes back where it was with Undo, without uploading it again', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'company-1' });
    // Two documents already uploaded with the draft (decision 2292).
    localStorage.setItem(
      'draft:company-1:job:job-1:files',
      JSON.stringify([
        { fileName: 'board-resolution.pdf', url: '/uploads/a.pdf' },
        { fileName: 'cac-forms.pdf', url: '/uploads/b.pdf' },
      ]),
    );
    const api = jsonFetch({ 'GET /job-api/jobs/job-1': () => ({ body: data }) });
    vi.stubGlobal('fetch', api.fn);
    renderPage(<JobPage />, { path: '/jobs/:jobId', at: '/jobs/job-1' });
    await userEvent.click(await screen.findByRole('button', { name: 'Remove board-resolution.pdf' }));
    expect(screen.queryByRole('button', { name: 'Remove board-resolution.pdf' })).toBeNull();
    const undo = screen.getByRole('button', { name: 'Undo: attach board-resolution.pdf again' });
    expect(undo).toHaveFocus();
    await userEvent.click(undo);
    const removes = screen.getAllByRole('button', { name: /^Remove / });
    expect(removes.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Remove board-resolution.pdf',
      'Remove cac-forms.pdf',
    ]);
    expect(api.calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
  });

  it('puts focus on the restored document’s Remove, as Undo’s row goes', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'company-1' });
    localStorage.setItem(
      'draft:company-1:job:job-1:files',
      JSON.stringify([
        { fileName: 'board-resolution.pdf', url: '/uploads/a.pdf' },
        { fileName: 'cac-forms.pdf', url: '/uploads/b.pdf' },
      ]),
    );
    vi.stubGlobal('fetch', jsonFetch({ 'GET /job-api/jobs/job-1': () => ({ body: data }) }).fn);
    renderPage(<JobPage />, { path: '/jobs/:jobId', at: '/jobs/job-1' });
    await userEvent.click(await screen.findByRole('button', { name: 'Remove cac-forms.pdf' }));
    await userEvent.click(screen.getByRole('button', { name: 'Undo: attach cac-forms.pdf again' }));
    expect(screen.getByRole('button', { name: 'Remove cac-forms.pdf' })).toHaveFocus();
  });

  it('says why Undo cannot put it back once five documents are attached again', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'company-1' });
    const five = [1, 2, 3, 4, 5].map((n) => ({ fileName: `doc-${n}.pdf`, url: `/uploads/${n}.pdf` }));
    localStorage.setItem('draft:company-1:job:job-1:files', JSON.stringify(five));
    vi.stubGlobal('fetch', jsonFetch({ 'GET /job-api/jobs/job-1': () => ({ body: data }) }).fn);
    stubInstantUpload({ fileName: 'doc-6.pdf', url: '/uploads/6.pdf' });
    renderPage(<JobPage />, { path: '/jobs/:jobId', at: '/jobs/job-1' });
    await userEvent.click(await screen.findByRole('button', { name: 'Remove doc-2.pdf' }));
    await userEvent.upload(
      screen.getByLabelText('Attach a document'),
      new File(['%PDF-1.4'], 'doc-6.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByRole('button', { name: 'Remove doc-6.pdf' })).toBeVisible();
    const undo = screen.getByRole('button', { name: 'Undo: attach doc-2.pdf again' });
    await userEvent.click(undo);
    expect(
      screen.getByText('doc-2.pdf cannot be attached again: a message carries at most 5 documents. Remove one first.'),
    ).toBeVisible();
    expect(undo).toHaveFocus();
    expect(screen.getAllByRole('button', { name: /^Remove / })).toHaveLength(5);
    expect(screen.queryByRole('button', { name: 'Remove doc-2.pdf' })).toBeNull();
  });

  it('says so when the document is attached again already', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'company-1' });
    localStorage.setItem(
      'draft:company-1:job:job-1:files',
      JSON.stringify([{ fileName: 'board-resolution.pdf', url: '/uploads/a.pdf' }]),
    );
    vi.stubGlobal('fetch', jsonFetch({ 'GET /job-api/jobs/job-1': () => ({ body: data }) }).fn);
    // The same stored file comes back (an upload the server recognised as one it holds).
    stubInstantUpload({ fileName: 'board-resolution.pdf', url: '/uploads/a.pdf' });
    renderPage(<JobPage />, { path: '/jobs/:jobId', at: '/jobs/job-1' });
    await userEvent.click(await screen.findByRole('button', { name: 'Remove board-resolution.pdf' }));
    await userEvent.upload(
      screen.getByLabelText('Attach a document'),
      new File(['%PDF-1.4'], 'board-resolution.pdf', { type: 'application/pdf' }),
    );
    expect(await screen.findByRole('button', { name: 'Remove board-resolution.pdf' })).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Undo: attach board-resolution.pdf again' }));
    expect(screen.getByText('board-resolution.pdf is attached already.')).toBeVisible();
    expect(screen.getAllByRole('button', { name: /^Remove / })).toHaveLength(1);
  });
});
