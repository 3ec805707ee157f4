import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@legalmarket/contracts/messages';
import { ownProfile, openOwnProfile } from './profile-test-kit';

const me = ownProfile;

/** A stand-in XMLHttpRequest the test drives by hand. */
class FakeXhr {
  static last: FakeXhr | null = null;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  status = 0;
  responseText = '';
  onload: (() => void) | null = null;
  open() {}
  setRequestHeader() {}
  send() {
    FakeXhr.last = this;
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

describe('the company profile picture on its way', () => {
  it('shows how much of it has gone up while the save waits', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify(me), { status: 200 }));
    URL.createObjectURL = vi.fn(() => 'blob:picture');
    URL.revokeObjectURL = vi.fn();
    openOwnProfile();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Update your details/ }));
    await user.upload(
      screen.getByTestId('profile-image-input'),
      new File(['\xff\xd8\xff'], 'IMG_20261127_101500.jpg', { type: 'image/jpeg' }),
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const xhr = FakeXhr.last!;
    xhr.upload.onprogress!({ lengthComputable: true, loaded: 35, total: 100 });
    expect(await screen.findByRole('progressbar', { name: 'Uploading IMG_20261127_101500.jpg' })).toHaveAttribute(
      'value',
      '35',
    );
    xhr.respond(200, { status: 'success', message: messages.profileUpdated, data: me });
    await vi.waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
  });
});
