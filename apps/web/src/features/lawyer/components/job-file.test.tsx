import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { BriefWithheld, JobFile } from './job-file';

/** Issue 14: answers to lawyers not assigned to a job carry a file's name but not its key. */
describe('JobFile', () => {
  it('names a file whose key the answer left out, with no link', () => {
    render(<JobFile url={null} name="supplier-agreement.pdf" readable={false} />);
    expect(screen.getByText('supplier-agreement.pdf')).toBeTruthy();
    expect(screen.getByText('(shared with you once the job is assigned to you)')).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('links a file the reader may open', () => {
    render(<JobFile url="/uploads/0123456789abcdef0123456789abcdef.pdf" name="brief.pdf" readable />);
    expect(screen.getByRole('link', { name: /brief\.pdf/ })).toBeTruthy();
  });

  it('shows nothing when neither name nor key came', () => {
    const { container } = render(<JobFile url={null} name={null} readable={false} />);
    expect(container.textContent).toBe('');
  });

  it('tells an unverified lawyer why the brief is missing', () => {
    render(<BriefWithheld />);
    expect(screen.getByRole('note').textContent).toMatch(/shown to verified lawyers only/);
  });
});
