import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PAYMENT_OPTIONS } from '@legalmarket/contracts/commerce';
import { PLAN_PAYMENT_OPTIONS } from '@legalmarket/contracts/plans';
import { REQUEST_TIMEOUT_MS } from '@/lib/http';
import { NO_CONNECTION } from './payment-messages';
import { SandboxCheckoutDialog } from './sandbox-checkout-dialog';

const opened = (paymentOptions: string) => ({
  reference: 'PLAN-1',
  amount: 80_000,
  currency: 'NGN' as const,
  title: 'Silver plan (monthly)',
  paymentOptions,
  customer: { email: 'co@example.ng', phone: '08030000000', name: 'Ada' },
  provider: { name: 'sandbox' as const, testMode: true },
});

const tabs = () =>
  within(screen.getByRole('tablist', { name: 'Payment method' }))
    .getAllByRole('tab')
    .map((t) => t.textContent);

describe('the sandbox payment window', () => {
  it("offers only a card for a monthly plan, as Flutterwave's window does for payment plans", () => {
    render(<SandboxCheckoutDialog data={opened(PLAN_PAYMENT_OPTIONS)} onDone={() => {}} />);
    expect(tabs()).toEqual(['Card']);
    expect(screen.getByLabelText('Card number')).toBeInTheDocument();
  });

  it("offers a cart's checkout every method, whatever the spacing of the list", () => {
    const { unmount } = render(<SandboxCheckoutDialog data={opened(PAYMENT_OPTIONS)} onDone={() => {}} />);
    expect(tabs()).toEqual(['Card', 'Mobile Money', 'USSD', 'Bank Transfer']);
    unmount();
    render(<SandboxCheckoutDialog data={opened('ussd, banktransfer')} onDone={() => {}} />);
    expect(tabs()).toEqual(['USSD', 'Bank Transfer']);
  });
});

describe('a charge the gateway answers for (decision 2307)', () => {
  it("leaves a charge answered by the gateway's 502 or 504 to the server too: it may have been recorded", async () => {
    for (const status of [502, 504]) {
      const charges = vi.fn(async () => new Response('<html><body>Bad Gateway</body></html>', { status }));
      vi.stubGlobal('fetch', charges);
      const onDone = vi.fn();
      const { unmount } = render(<SandboxCheckoutDialog data={opened('ussd')} onDone={onDone} />);
      await userEvent.click(screen.getByRole('button', { name: 'I have completed this payment' }));
      // No pay button left to charge a second time: the page verifies by reference.
      await vi.waitFor(() => expect(onDone).toHaveBeenCalledWith({ status: 'successful' }));
      expect(screen.queryByRole('alert')).toBeNull();
      expect(charges).toHaveBeenCalledOnce();
      unmount();
    }
  });
});

describe('a charge whose answer never comes (decision 2307)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('closes the window and leaves the payment to the server, so it cannot be charged twice', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const charges = vi.fn(() => new Promise<Response>(() => {}));
    vi.stubGlobal('fetch', charges);
    const onDone = vi.fn();
    render(<SandboxCheckoutDialog data={opened('ussd')} onDone={onDone} />);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(screen.getByRole('button', { name: 'I have completed this payment' }));
    expect(charges).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    // No "nothing was charged" and no button to charge again: the page verifies by reference.
    expect(onDone).toHaveBeenCalledWith({ status: 'successful' });
    expect(screen.queryByText(NO_CONNECTION)).toBeNull();
    expect(charges).toHaveBeenCalledOnce();
  });

  it('still says "nothing was charged" when the line failed before an answer could be lost', async () => {
    // The line is down before the charge is sent (decision 2313): the browser says it is offline.
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const onDone = vi.fn();
    render(<SandboxCheckoutDialog data={opened('ussd')} onDone={onDone} />);
    await userEvent.click(screen.getByRole('button', { name: 'I have completed this payment' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(NO_CONNECTION);
    expect(onDone).not.toHaveBeenCalled();
  });

  it('leaves a charge whose connection dropped mid-request to the server too (decision 2313)', async () => {
    const charges = vi.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    vi.stubGlobal('fetch', charges);
    const onDone = vi.fn();
    render(<SandboxCheckoutDialog data={opened('ussd')} onDone={onDone} />);
    await userEvent.click(screen.getByRole('button', { name: 'I have completed this payment' }));
    // Sent while online: it may have been recorded, so the page asks the server by reference.
    await vi.waitFor(() => expect(onDone).toHaveBeenCalledWith({ status: 'successful' }));
    expect(screen.queryByText(NO_CONNECTION)).toBeNull();
    expect(charges).toHaveBeenCalledOnce();
  });
});

describe('the sandbox payment window on a phone', () => {
  it('gives Close payment a 44 px tap target, like every other button', () => {
    render(<SandboxCheckoutDialog data={opened(PAYMENT_OPTIONS)} onDone={() => {}} />);
    expect(screen.getByRole('button', { name: 'Close payment' })).toHaveClass('size-11');
  });
});
