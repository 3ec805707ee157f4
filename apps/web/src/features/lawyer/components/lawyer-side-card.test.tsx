import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSession } from '@/lib/session';
import { verifiedLawyer } from '@/test/lawyer-profile';
import { jsonFetch, renderPage } from '@/test/render';
import { LawyerSideCard } from './lawyer-side-card';

describe("the lawyer's side card when the profile cannot be read", { timeout: 30_000 }, () => {
  it('says so with a way to read it again, not "Profile Status 0%"', async () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    let fail = true;
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        'GET /api/userprofile': () =>
          fail
            ? { status: 503, body: { message: 'The service is busy. Please try again.' } }
            : { body: { ...verifiedLawyer, userType: 'lawyer' } },
      }).fn,
    );
    renderPage(<LawyerSideCard />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Your profile could not be loaded.');
    expect(screen.queryByRole('progressbar')).toBeNull();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Load your profile again' }));
    expect(await screen.findByRole('progressbar', { name: 'Profile Status' })).toBeInTheDocument();
    expect(screen.getByText('Chidi Okeke')).toBeInTheDocument();
  });
});
