import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { messages } from '@legalmarket/contracts/messages';
import { setSession } from '@/lib/session';
import { verifiedLawyer } from '@/test/lawyer-profile';
import { renderPage, testQueryClient } from '@/test/render';
import { lawyerKeys } from '../api/keys';
import type { LawyerProfile } from '../api/get-lawyer-profile';
import { VerificationBanner } from './verification-banner';

// The shared lawyer's profile, not yet verified and with no areas of practice.
const lawyer = (over: Partial<LawyerProfile>): LawyerProfile => ({
  ...verifiedLawyer,
  areasOfPractise: [],
  verified: false,
  ...over,
});

function show(profile: LawyerProfile, at = '/lawyer/dashboard') {
  setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
  const client = testQueryClient();
  client.setQueryData(lawyerKeys.profile('l1', false), profile);
  return renderPage(<VerificationBanner />, { path: '*', at, client });
}

describe('the verification banner (decisions 1820, 1860)', () => {
  it('says a refused verification, with the reason and the way to be checked again', () => {
    const reason = 'Your SCN does not match the NBA roll; please send your call certificate.';
    show(lawyer({ verificationRejection: { reason, rejectedAt: '2026-11-25T10:00:00.000Z' } }));
    const banner = screen.getByRole('status');
    expect(banner).toHaveTextContent(messages.verificationDeclined);
    expect(banner).toHaveTextContent(reason);
    expect(banner).toHaveTextContent(messages.verificationDeclinedNext);
    expect(banner).not.toHaveTextContent(messages.verificationPending);
    expect(screen.getByRole('link', { name: 'Update your details' })).toHaveAttribute('href', '/lawyer/profile/l1');
  });

  it('offers no link on the profile page itself, which has its own button', () => {
    show(
      lawyer({
        verificationRejection: { reason: 'Please add your year of call.', rejectedAt: '2026-11-25T10:00:00Z' },
      }),
      '/lawyer/profile/l1',
    );
    expect(screen.getByRole('status')).toHaveTextContent('Please add your year of call.');
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('says pending without a refusal', () => {
    show(lawyer({}));
    expect(screen.getByRole('status')).toHaveTextContent(messages.verificationPending);
    expect(screen.getByRole('status')).not.toHaveTextContent(messages.verificationDeclined);
  });

  it('shows nothing to a verified lawyer', () => {
    show(lawyer({ verified: true }));
    expect(screen.queryByRole('status')).toBeNull();
  });
});
