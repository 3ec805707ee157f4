import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EXPERTISE } from '@legalmarket/contracts/constants';
import { messages } from '@legalmarket/contracts/messages';
import { jsonFetch, renderPage } from '@/test/render';
import SignupLawyerPage from './signup-lawyer-page';

const show = () => renderPage(<SignupLawyerPage />, { path: '/signup/asalawyer', at: '/signup/asalawyer' });

describe('/signup/asalawyer keeps what is typed', { timeout: 30_000 }, () => {
  it('through a failed send and a reload, never the passwords, and drops it once signed up', async () => {
    let posts = 0;
    const api = jsonFetch({
      'POST /api/lawyer/signup': () =>
        ++posts === 1
          ? { status: 503, body: { message: 'Service unavailable' } }
          : { body: { status: 'success', message: 'Signed up' } },
    });
    vi.stubGlobal('fetch', api.fn);
    const user = userEvent.setup();
    const view = show();
    await user.type(screen.getByLabelText('Full name'), 'Chidinma Okonkwo-Adeyemi');
    await user.type(screen.getByLabelText('Official email'), 'chidinma@okonkwo-law.ng');
    await user.type(screen.getByLabelText('Phone number'), '08012345678');
    await user.type(screen.getByLabelText('Supreme Court Number (SCN)'), 'SCN123456');
    await user.click(screen.getByRole('button', { name: EXPERTISE[0] }));
    await user.type(screen.getByLabelText('Law firm address (optional)'), '14 Awolowo Road, Ikoyi, Lagos');
    await user.type(screen.getByLabelText('Password'), 'Str0ng!Passw0rd');
    await user.type(screen.getByLabelText('Confirm password'), 'Str0ng!Passw0rd');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Service unavailable');

    // The tab is reloaded (or dropped by the phone and opened again): the details are back, not the password.
    view.unmount();
    show();
    expect(screen.getByLabelText('Full name')).toHaveValue('Chidinma Okonkwo-Adeyemi');
    expect(screen.getByLabelText('Official email')).toHaveValue('chidinma@okonkwo-law.ng');
    expect(screen.getByLabelText('Supreme Court Number (SCN)')).toHaveValue('SCN123456');
    expect(screen.getByLabelText('Law firm address (optional)')).toHaveValue('14 Awolowo Road, Ikoyi, Lagos');
    expect(screen.getByRole('button', { name: EXPERTISE[0] })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(sessionStorage.getItem('lawyerSignupDraft')).not.toContain('Str0ng');

    await user.type(screen.getByLabelText('Password'), 'Str0ng!Passw0rd');
    await user.type(screen.getByLabelText('Confirm password'), 'Str0ng!Passw0rd');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    await vi.waitFor(() => expect(posts).toBe(2));
    await vi.waitFor(() => expect(sessionStorage.getItem('lawyerSignupDraft')).toBeNull());
  });
});

describe('/signup/asalawyer with storage that refuses', { timeout: 30_000 }, () => {
  it('says the account is created when dropping the draft throws', async () => {
    const api = jsonFetch({ 'POST /api/lawyer/signup': () => ({ body: { status: 'success', message: 'Signed up' } }) });
    vi.stubGlobal('fetch', api.fn);
    const refuse = vi.spyOn(Storage.prototype, 'removeItem').mockImplementation(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    });
    try {
      const user = userEvent.setup();
      show();
      await user.type(screen.getByLabelText('Full name'), 'Chidinma Okonkwo-Adeyemi');
      await user.type(screen.getByLabelText('Official email'), 'chidinma@okonkwo-law.ng');
      await user.type(screen.getByLabelText('Phone number'), '08012345678');
      await user.type(screen.getByLabelText('Supreme Court Number (SCN)'), 'SCN123456');
      await user.click(screen.getByRole('button', { name: EXPERTISE[0] }));
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

describe('/signup/asalawyer without an area of practise', { timeout: 30_000 }, () => {
  it('takes focus to the first area when it is the first field missing', async () => {
    const api = jsonFetch({});
    vi.stubGlobal('fetch', api.fn);
    const user = userEvent.setup();
    show();
    await user.type(screen.getByLabelText('Full name'), 'Chidinma Okonkwo-Adeyemi');
    await user.type(screen.getByLabelText('Official email'), 'chidinma@okonkwo-law.ng');
    await user.type(screen.getByLabelText('Phone number'), '08012345678');
    await user.type(screen.getByLabelText('Supreme Court Number (SCN)'), 'SCN123456');
    await user.type(screen.getByLabelText('Password'), 'Str0ng!Passw0rd');
    await user.type(screen.getByLabelText('Confirm password'), 'Str0ng!Passw0rd');
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('Please enter your areas of practise')).toBeVisible();
    expect(screen.getByRole('button', { name: EXPERTISE[0] })).toHaveFocus();
    expect(api.calls).toHaveLength(0);
  });
});
