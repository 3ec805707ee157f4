import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, setUnauthorizedHandler } from './http';
import { clearSession, getSession, setSession } from './session';

const keys = () => Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i) ?? '').sort();

const typed = () => {
  setSession({ userToken: 't', userType: 'company', userId: 'c1' });
  localStorage.setItem('draft:c1:job:j1:note', JSON.stringify('The vesting schedule starts at incorporation.'));
  localStorage.setItem('draft:c1:bio', JSON.stringify({ yourBio: 'We build payments for market traders.' }));
  // Left by another account whose session the server ended.
  localStorage.setItem('draft:l9:details-request:j2', JSON.stringify({ detail: 'The CAC forms, please' }));
  // Not drafts: a visitor's reservations stay in this browser (spec section 4).
  localStorage.setItem('reservedItems', '[]');
};

afterEach(() => setUnauthorizedHandler(() => window.location.assign('/login')));

describe('clearSession and drafts (decision 2226)', () => {
  it('drops every draft at logout, of every account, and nothing else', () => {
    typed();
    clearSession();
    expect(getSession()).toBeNull();
    expect(keys()).toEqual(['reservedItems']);
  });

  it('keeps the drafts when the server ended the session (a 401), for the same user to find', async () => {
    typed();
    const gone = vi.fn();
    setUnauthorizedHandler(gone);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ message: 'Not logged in' }), { status: 401 })),
    );
    await expect(api('/job-api/jobs/j1/actions/message', { method: 'POST', body: {} })).rejects.toThrow();
    expect(gone).toHaveBeenCalledOnce();
    expect(getSession()).toBeNull();
    expect(keys()).toEqual(['draft:c1:bio', 'draft:c1:job:j1:note', 'draft:l9:details-request:j2', 'reservedItems']);
  });
});
