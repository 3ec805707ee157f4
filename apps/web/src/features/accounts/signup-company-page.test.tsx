import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@legalmarket/contracts/messages';
import { jsonFetch, renderPage } from '@/test/render';
import SignupCompanyPage from './signup-company-page';

const show = () => renderPage(<SignupCompanyPage />, { path: '/signup/asacompany', at: '/signup/asacompany' });

describe('/signup/asacompany', { timeout: 30_000 }, () => {
  it('asks for an empty phone number with the generic sign-up rule (spec section 5)', async () => {
    sessionStorage.clear();
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    show();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Company name'), 'Ada Ventures Ltd');
    await user.type(screen.getByLabelText('Contact name'), 'Ada Obi');
    await user.type(screen.getByLabelText('Official email'), 'ada@example.ng');
    await user.type(screen.getByLabelText('Office address'), '12 Marina, Lagos');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    // "every field ... must be filled; missing gives Please enter your {label}"
    expect(await screen.findByText('Please enter your contact phone number')).toBeInTheDocument();
    expect(screen.queryByText(messages.phoneRule)).not.toBeInTheDocument();

    // A number that is there but not 11 digits keeps the phone rule.
    await user.type(screen.getByLabelText('Contact phone number'), '0801234');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(messages.phoneRule)).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('/signup/asacompany with storage that refuses', { timeout: 30_000 }, () => {
  it('says the account is created when dropping the draft throws', async () => {
    sessionStorage.clear();
    vi.stubGlobal(
      'fetch',
      jsonFetch({ 'POST /api/company/signup': () => ({ body: { status: 'success', message: 'Signed up' } }) }).fn,
    );
    const refuse = vi.spyOn(Storage.prototype, 'removeItem').mockImplementation(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    });
    try {
      show();
      const user = userEvent.setup();
      await user.type(screen.getByLabelText('Company name'), 'Ada Ventures Ltd');
      await user.type(screen.getByLabelText('Contact name'), 'Ada Obi');
      await user.type(screen.getByLabelText('Contact phone number'), '08012345678');
      await user.type(screen.getByLabelText('Official email'), 'ada@example.ng');
      await user.type(screen.getByLabelText('Office address'), '12 Marina, Lagos');
      await user.click(screen.getByRole('button', { name: 'Next' }));
      await user.type(await screen.findByLabelText('Industry'), 'Fintech');
      await user.type(screen.getByLabelText('Password'), 'Str0ng!Passw0rd');
      await user.type(screen.getByLabelText('Confirm password'), 'Str0ng!Passw0rd');
      await user.click(screen.getByRole('checkbox'));
      await user.click(screen.getByRole('button', { name: 'Sign up' }));
      expect(await screen.findByRole('heading', { name: messages.accountCreated })).toBeVisible();
      expect(refuse).toHaveBeenCalled();
      expect(screen.queryByText(new RegExp(messages.signupProblem))).toBeNull();
    } finally {
      refuse.mockRestore();
    }
  });
});
