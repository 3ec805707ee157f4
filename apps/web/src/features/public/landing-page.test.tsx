import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import LandingPage from './landing-page';

describe('landing page How it Works', () => {
  it('says account verification takes about one hour, as the guide text of the spec does', async () => {
    render(
      <MemoryRouter>
        <LandingPage />
      </MemoryRouter>,
    );
    expect(await screen.findByText(/about one hour/)).toBeInTheDocument();
    expect(screen.queryByText(/about a minute/)).toBeNull();
  });
});
