import { describe, expect, it } from 'vitest';
import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Pagination } from './pagination';

function Paged() {
  const [page, setPage] = useState(1);
  return <Pagination page={page} total={15} pageSize={5} onChange={setPage} />;
}

describe('Pagination by keyboard', () => {
  it('puts focus on the current page number when Next or Previous turns itself off', async () => {
    render(<Paged />);
    const next = screen.getByRole('button', { name: 'Next page' });
    next.focus();
    await userEvent.keyboard('{Enter}');
    expect(next).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(next).toBeDisabled();
    expect(screen.getByRole('button', { name: '3' })).toHaveFocus();
    const previous = screen.getByRole('button', { name: 'Previous page' });
    previous.focus();
    await userEvent.keyboard('{Enter}{Enter}');
    expect(previous).toBeDisabled();
    expect(screen.getByRole('button', { name: '1' })).toHaveFocus();
  });
});
