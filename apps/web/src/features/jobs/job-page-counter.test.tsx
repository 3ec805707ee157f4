import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { characterCount } from '@legalmarket/contracts/job-lifecycle';
import { companyJobPage, companyOnJobPage, renderJobPage } from './job-page-test-kit';

// The count itself, watched: the page is to count the note once per change, not once per render.
vi.mock('@legalmarket/contracts/job-lifecycle', async (original) => {
  const actual = await original<typeof import('@legalmarket/contracts/job-lifecycle')>();
  return { ...actual, characterCount: vi.fn(actual.characterCount) };
});

const data = companyJobPage('in_progress');

function openWithDraft(note: string) {
  companyOnJobPage(data, { drafts: { note, files: [{ fileName: 'cac-forms.pdf', url: '/uploads/b.pdf' }] } });
  renderJobPage();
}

describe('/jobs/{id} the note’s character counter', { timeout: 30_000 }, () => {
  it('counts the note again only when it changes, not on every render', async () => {
    openWithDraft('The CAC forms are attached.');
    expect(await screen.findByText('27 / 5,000')).toBeVisible();
    const counted = vi.mocked(characterCount).mock.calls.length;
    // Renders that leave the note as it was: a document removed, and put back.
    await userEvent.click(screen.getByRole('button', { name: 'Remove cac-forms.pdf' }));
    await userEvent.click(screen.getByRole('button', { name: 'Undo: attach cac-forms.pdf again' }));
    expect(vi.mocked(characterCount).mock.calls.length).toBe(counted);
    await userEvent.type(screen.getByLabelText('Message or note'), '!');
    expect(screen.getByText('28 / 5,000')).toBeVisible();
    expect(vi.mocked(characterCount).mock.calls.length).toBeGreaterThan(counted);
  });

  it('shows in red past 5,000 characters, not before', async () => {
    openWithDraft('a'.repeat(5000));
    const counter = await screen.findByText('5,000 / 5,000');
    expect(counter).not.toHaveClass('text-red-700');
    await userEvent.type(screen.getByLabelText('Message or note'), 'b');
    expect(screen.getByText('5,001 / 5,000')).toHaveClass('text-red-700');
  });
});
