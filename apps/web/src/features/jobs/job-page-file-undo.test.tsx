import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { stubInstantUpload } from '@/test/instant-upload';
import { companyJobPage, companyOnJobPage, renderJobPage } from './job-page-test-kit';

const data = companyJobPage('in_progress');

describe('/jobs/{id} a document removed from the composer by mistake', { timeout: 30_000 }, () => {
  it('comes back where it was with Undo, without uploading it again', async () => {
    // Two documents already uploaded with the draft (decision 2292).
    const api = companyOnJobPage(data, {
      drafts: {
        files: [
          { fileName: 'board-resolution.pdf', url: '/uploads/a.pdf' },
          { fileName: 'cac-forms.pdf', url: '/uploads/b.pdf' },
        ],
      },
    });
    renderJobPage();
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
    companyOnJobPage(data, {
      drafts: {
        files: [
          { fileName: 'board-resolution.pdf', url: '/uploads/a.pdf' },
          { fileName: 'cac-forms.pdf', url: '/uploads/b.pdf' },
        ],
      },
    });
    renderJobPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Remove cac-forms.pdf' }));
    await userEvent.click(screen.getByRole('button', { name: 'Undo: attach cac-forms.pdf again' }));
    expect(screen.getByRole('button', { name: 'Remove cac-forms.pdf' })).toHaveFocus();
  });

  it('says why Undo cannot put it back once five documents are attached again', async () => {
    const five = [1, 2, 3, 4, 5].map((n) => ({ fileName: `doc-${n}.pdf`, url: `/uploads/${n}.pdf` }));
    companyOnJobPage(data, { drafts: { files: five } });
    stubInstantUpload({ fileName: 'doc-6.pdf', url: '/uploads/6.pdf' });
    renderJobPage();
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
    companyOnJobPage(data, { drafts: { files: [{ fileName: 'board-resolution.pdf', url: '/uploads/a.pdf' }] } });
    // The same stored file comes back (an upload the server recognised as one it holds).
    stubInstantUpload({ fileName: 'board-resolution.pdf', url: '/uploads/a.pdf' });
    renderJobPage();
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
