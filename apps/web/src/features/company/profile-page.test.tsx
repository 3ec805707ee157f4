import { describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { messages } from '@legalmarket/contracts/messages';
import { setSession } from '@/lib/session';
import { companyKeys } from './api/keys';
import CompanyProfilePage from './profile-page';
import { ownProfile } from './profile-test-kit';

const mutate = vi.fn();
vi.mock('./api/profile', async (original) => ({
  ...(await original<typeof import('./api/profile')>()),
  useUpdateProfile: () => ({ mutate, isPending: false }),
}));

const me = ownProfile;

async function openEditor() {
  mutate.mockClear();
  setSession({ userToken: 't', userType: 'company', userId: 'c1' });
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(companyKeys.profile('c1', 'own'), me);
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/company/profile/c1']}>
        <Routes>
          <Route path="/company/profile/:companyId" element={<CompanyProfilePage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: /Update your details/ }));
  return user;
}

describe('the company profile form', () => {
  it('shows a short phone number on the field and sends nothing', async () => {
    const user = await openEditor();
    const phone = screen.getByLabelText('Phone Number');
    await user.clear(phone);
    await user.type(phone, '0801a');
    expect(phone).toHaveValue('0801');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(messages.phoneRule)).toBeInTheDocument();
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(phone.getAttribute('aria-describedby')).toContain(screen.getByText(messages.phoneRule).getAttribute('id')!);
    expect(mutate).not.toHaveBeenCalled();
  });

  it('asks for the current password on its field when the e-mail changes', async () => {
    const user = await openEditor();
    const email = screen.getByLabelText('Email Address');
    await user.clear(email);
    await user.type(email, 'new@example.ng');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(messages.currentPasswordRequired)).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveAttribute('aria-invalid', 'true');
    expect(mutate).not.toHaveBeenCalled();
  });

  it('sends only the filled fields when they are valid', async () => {
    const user = await openEditor();
    await user.type(screen.getByLabelText('Website'), 'https://obi.ng');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(mutate).toHaveBeenCalledTimes(1);
    const form = mutate.mock.calls[0][0] as FormData;
    expect(Object.fromEntries(form.entries())).toEqual({
      officialEmail: 'ada@example.ng',
      website: 'https://obi.ng',
      phoneNumber: '08012345678',
    });
  });
});

describe('the bio is kept while written (decision 2226)', () => {
  type Options = { onSuccess: () => void; onError: (err: Error) => void };
  const bio = 'We build payment tools for market traders in Lagos and Kano, and we are raising our seed round.';

  it('through a failed save and a reload, and is dropped once saved', async () => {
    let user = await openEditor();
    await user.type(screen.getByLabelText('Your Bio'), bio);
    mutate.mockImplementationOnce((_form: FormData, o: Options) => o.onError(new Error('Internal Server Error')));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Internal Server Error')).toBeVisible();
    expect(screen.getByLabelText('Your Bio')).toHaveValue(bio);

    cleanup();
    user = await openEditor();
    await vi.waitFor(() => expect(screen.getByLabelText('Your Bio')).toHaveValue(bio));
    mutate.mockImplementationOnce((_form: FormData, o: Options) => o.onSuccess());
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((mutate.mock.calls[0][0] as FormData).get('yourBio')).toBe(bio);
    expect(localStorage.getItem('draft:c1:bio')).toBeNull();
  });

  it('is dropped by Cancel', async () => {
    let user = await openEditor();
    await user.type(screen.getByLabelText('Your Bio'), bio);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    cleanup();
    user = await openEditor();
    expect(screen.getByLabelText('Your Bio')).toHaveValue('');
    expect(localStorage.getItem('draft:c1:bio')).toBeNull();
  });
});

describe('the profile picture (decision 2291)', () => {
  it('is refused on picking when past 5 MB, and the save goes without it', async () => {
    const user = await openEditor();
    const photo = new File(['\xff\xd8\xff'], 'IMG_20261127_101500.jpg', { type: 'image/jpeg' });
    Object.defineProperty(photo, 'size', { value: 5 * 1024 * 1024 + 1 });
    await user.upload(screen.getByTestId('profile-image-input'), photo);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'IMG_20261127_101500.jpg: The file is too large: the limit is 5 MB',
    );
    expect(screen.queryByText(/New picture/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((mutate.mock.calls[0][0] as FormData).get('profileImage')).toBeNull();
  });
});
