import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSession } from '@/lib/session';
import { heldFetch } from '@/test/held-fetch';
import { DocumentLink } from './document-link';

describe('DocumentLink on a slow line', () => {
  it('asks for one signed link however often it is tapped while that one is on its way', async () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    const stub = heldFetch(
      { 'GET /api/files/brief.pdf/link': () => ({ body: { data: { url: '/signed/brief.pdf' } } }) },
      () => true,
    );
    vi.stubGlobal('fetch', stub.fn);
    render(<DocumentLink url="/uploads/brief.pdf" name="brief.pdf" />);
    const link = screen.getByRole('link', { name: 'brief.pdf' });
    await userEvent.click(link);
    await waitFor(() => expect(stub.sent).toHaveLength(1));
    expect(link).toHaveAttribute('aria-busy', 'true');
    await userEvent.click(link);
    await userEvent.click(link);
    expect(stub.calls).toHaveLength(1);
  });
});
