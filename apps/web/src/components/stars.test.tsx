import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { shuffle } from './product-carousel';
import { Stars, StarsInput } from './stars';

describe('Stars', () => {
  it('announces the value once and caps it at 5', () => {
    render(
      <>
        <Stars value={3.7} />
        <Stars value={9} />
      </>,
    );
    expect(screen.getByRole('img', { name: '3.7 out of 5 stars' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: '5 out of 5 stars' })).toBeInTheDocument();
  });
});

describe('StarsInput', () => {
  function Harness() {
    const [v, setV] = useState(0);
    return (
      <>
        <StarsInput label="Rating" value={v} onChange={setV} />
        <output>{v}</output>
      </>
    );
  }

  it('is a radio group picked by click and moved by arrow keys', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.getByRole('radiogroup', { name: 'Rating' })).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: '3 stars' }));
    expect(screen.getByRole('status')).toHaveTextContent('3');
    expect(screen.getByRole('radio', { name: '3 stars' })).toHaveAttribute('aria-checked', 'true');
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('status')).toHaveTextContent('4');
    expect(screen.getByRole('radio', { name: '4 stars' })).toHaveFocus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByRole('status')).toHaveTextContent('5');
    await user.keyboard('{Home}');
    expect(screen.getByRole('status')).toHaveTextContent('1');
  });
});

describe('shuffle', () => {
  it('keeps every item exactly once', () => {
    const items = Array.from({ length: 20 }, (_, i) => i);
    const out = shuffle(items);
    expect([...out].sort((a, b) => a - b)).toEqual(items);
    expect(items).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});
