import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { openOwnProfile } from './profile-test-kit';

describe('/company/profile focus between the view and the edit form', () => {
  it('heads the form, focuses that heading on Update your details, and the button again on Cancel', async () => {
    openOwnProfile();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Update your details/ }));
    expect(screen.getByRole('heading', { level: 1, name: 'Update your details' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: /Update your details/ })).toHaveFocus();
  });
});
