import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { guardTarget, RequireRole } from './guard';
import { setSession } from '@/lib/session';

describe('route guard (spec section 6)', () => {
  it('sends a visitor to /, tells a wrong role whose page it is, and lets admins through everywhere', () => {
    expect(guardTarget(null, ['company'])).toBe('/');
    expect(guardTarget({ userType: 'lawyer', userToken: 't' }, ['company'])).toBe('wrong-role');
    expect(guardTarget({ userType: 'lawyer', userToken: '' }, ['company'])).toBe('/login');
    expect(guardTarget({ userType: 'company', userToken: 't' }, ['company'])).toBeNull();
    expect(guardTarget({ userType: 'admin', userToken: 't' }, ['lawyer'])).toBeNull();
    expect(guardTarget({ userType: 'admin', userToken: '' }, ['lawyer'])).toBe('/login');
  });

  const app = (start: string) =>
    render(
      <MemoryRouter initialEntries={[start]}>
        <Routes>
          <Route path="/" element={<p>home page</p>} />
          <Route path="/login" element={<p>login page</p>} />
          <Route
            path="/company/dashboard"
            element={
              <RequireRole allowed={['company']}>
                <p>company dashboard</p>
              </RequireRole>
            }
          />
        </Routes>
      </MemoryRouter>,
    );

  it('renders the page for the right role and redirects the others', () => {
    app('/company/dashboard');
    expect(screen.getByText('home page')).toBeInTheDocument();
  });

  it('tells a signed-in lawyer the page is for companies, with a link to their own dashboard', () => {
    setSession({ userToken: 't', userType: 'lawyer', userId: 'l1' });
    app('/company/dashboard');
    expect(screen.getByRole('heading', { name: 'This page is for companies' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your dashboard' })).toHaveAttribute('href', '/lawyer/dashboard');
    expect(screen.queryByText('login page')).not.toBeInTheDocument();
    expect(screen.queryByText('company dashboard')).not.toBeInTheDocument();
  });

  it('shows the company its dashboard', () => {
    setSession({ userToken: 't', userType: 'company', userId: 'c1' });
    app('/company/dashboard');
    expect(screen.getByText('company dashboard')).toBeInTheDocument();
  });
});
