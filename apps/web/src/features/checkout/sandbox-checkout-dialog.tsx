import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { CreditCard, Lock, Smartphone, Hash, Landmark, X } from 'lucide-react';
import {
  SANDBOX_CARDS,
  SANDBOX_OTP,
  type CheckoutData,
  type PaymentMethod,
  type SandboxVirtualAccount,
} from '@legalmarket/contracts/commerce';
import { BreakableText } from '@/components/breakable-text';
import { Button } from '@/components/button';
import { trapTab } from '@/components/modal';
import { Tabs, tabPanelProps } from '@/components/tabs';
import { formatNairaExact as ngn } from '@legalmarket/contracts/format';
import { isAnswerLost } from '@/lib/answer-lost';
import { getErrorMessage, isNetworkError } from '@/lib/http';
import { sandboxCharge } from './api/sandbox-charge';
import { BankTransferPanel } from './bank-transfer-panel';
import type { PaymentResult } from './payment-result';
import { NO_CONNECTION } from './payment-messages';

type Method = PaymentMethod;
type Step = 'details' | 'pin' | 'otp' | 'ussd-code';

const METHODS: Array<{ id: Method; label: string; icon: ReactNode }> = [
  { id: 'card', label: 'Card', icon: <CreditCard aria-hidden className="size-4" /> },
  { id: 'mobilemoney', label: 'Mobile Money', icon: <Smartphone aria-hidden className="size-4" /> },
  { id: 'ussd', label: 'USSD', icon: <Hash aria-hidden className="size-4" /> },
  { id: 'banktransfer', label: 'Bank Transfer', icon: <Landmark aria-hidden className="size-4" /> },
];
/**
 * The methods the window was opened with (Flutterwave's `payment_options`, comma separated, spaces
 * allowed), as its own modal offers only those: a monthly plan's is `card` (decision 2190).
 */
export function offeredMethods(paymentOptions: string) {
  const named = new Set(paymentOptions.split(',').map((o) => o.trim().toLowerCase()));
  const offered = METHODS.filter((m) => named.has(m.id));
  return offered.length ? offered : METHODS;
}
const BANKS = ['Access Bank (*901#)', 'GTBank (*737#)', 'First Bank (*894#)', 'UBA (*919#)', 'Zenith Bank (*966#)'];
/** The code dialled for USSD: digits only, as a phone keypad takes them (the reference holds letters too). */
const ussdCode = (bank: string, reference: string) =>
  `${bank.replace(/.*\((\*\d+)#\)/, '$1')}*000*${reference.replace(/\D/g, '').slice(-6).padStart(6, '0')}#`;
/** A second tap this soon after a step changed is the same tap twice, not a submit of the new step. */
const DOUBLE_TAP_MS = 600;
const groupCard = (v: string) =>
  v
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
const expiryMask = (v: string) => {
  const d = v.replace(/\D/g, '').slice(0, 4);
  return d.length > 2 ? `${d.slice(0, 2)}/${d.slice(2)}` : d;
};

const input =
  'block w-full min-h-11 rounded-md border border-slate-300 bg-white px-3 py-2 text-base focus:border-orange-500 focus:outline-2 focus:outline-orange-200';

/**
 * The offline sandbox checkout, modelled on Flutterwave's inline modal: card, mobile money, USSD and bank
 * transfer (those the window was opened with), Flutterwave's published test cards shown on the dialog. The
 * charge is recorded on our server, which then verifies it like a real payment.
 */
export function SandboxCheckoutDialog({
  data,
  onDone,
}: {
  data: Omit<CheckoutData, 'orderId'>;
  onDone: (r: PaymentResult) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const tabsId = useId();
  const methods = offeredMethods(data.paymentOptions);
  const [method, setMethod] = useState<Method>(methods[0].id);
  const [step, setStepState] = useState<Step>(methods[0].id === 'ussd' ? 'ussd-code' : 'details');
  const stepChangedAt = useRef(0);
  const setStep = (s: Step) => {
    stepChangedAt.current = Date.now();
    setStepState(s);
  };
  const [card, setCard] = useState({ number: '', expiry: '', cvv: '' });
  const [pin, setPin] = useState('');
  const [otp, setOtp] = useState('');
  const [phone, setPhone] = useState(data.customer.phone ?? '');
  const [bank, setBank] = useState(BANKS[1]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [account, setAccount] = useState<SandboxVirtualAccount | null>(null);
  const onAccount = useCallback((a: SandboxVirtualAccount | null) => setAccount(a), []);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) {
      if (typeof d.showModal === 'function') d.showModal();
      else d.setAttribute('open', '');
    }
  }, []);

  const choose = (m: Method) => {
    setMethod(m);
    setStep(m === 'ussd' ? 'ussd-code' : 'details');
    setError(null);
    setOtp('');
    setPin('');
  };

  async function charge(extra: { cardNumber?: string; pin?: string; otp?: string; phone?: string; amount?: number }) {
    // Offline before anything is sent: nothing can have been charged, so say so and keep the button.
    if (typeof navigator !== 'undefined' && navigator.onLine === false) return setError(NO_CONNECTION);
    setBusy(true);
    setError(null);
    try {
      const res = await sandboxCharge({
        reference: data.reference,
        amount: data.amount,
        currency: data.currency,
        paymentType: method,
        ...extra,
      });
      onDone({
        status: res.status === 'successful' ? 'successful' : 'failed',
        transactionId: res.transaction_id,
        reason: res.status === 'successful' ? undefined : res.processor_response,
      });
    } catch (err) {
      // Sent, no answer: the charge may be recorded, and a second tap would charge again. The page asks
      // the server about the reference, as for any payment, and the dialog closes (decision 2307). A
      // connection dropped mid-request (decision 2313) or a gateway's 502/504 is such a lost answer too.
      if (isAnswerLost(err) || isNetworkError(err)) return onDone({ status: 'successful' });
      // A wrong PIN: back to the PIN step.
      const message = getErrorMessage(err);
      if (/PIN/i.test(message)) {
        setPin('');
        setOtp('');
        setStep('pin');
      }
      setError(message);
      setBusy(false);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    // The second tap of a double tap lands on the next step, whose field is still empty: ignore it.
    const justChanged = Date.now() - stepChangedAt.current < DOUBLE_TAP_MS;
    if (justChanged && ((step === 'otp' && !otp) || (step === 'pin' && !pin))) return;
    setError(null);
    if (method === 'card') {
      if (step === 'details') {
        if (card.number.replace(/\D/g, '').length < 12) return setError('Enter a valid card number');
        if (!/^\d{2}\/\d{2}$/.test(card.expiry)) return setError('Enter the expiry date as MM/YY');
        if (!/^\d{3,4}$/.test(card.cvv)) return setError('Enter the 3-digit CVV');
        return setStep('pin');
      }
      if (step === 'pin') {
        if (!/^\d{4}$/.test(pin)) return setError('Enter your 4-digit card PIN');
        return setStep('otp');
      }
      if (!/^\d{4,6}$/.test(otp)) return setError('Enter the OTP sent to your phone');
      return void charge({ cardNumber: card.number, pin, otp });
    }
    if (method === 'mobilemoney') {
      if (step === 'details') {
        if (phone.replace(/\D/g, '').length < 10) return setError('Enter your mobile money number');
        return setStep('otp');
      }
      if (!/^\d{4,6}$/.test(otp)) return setError('Enter the OTP sent to your phone');
      return void charge({ phone, otp });
    }
    if (method === 'banktransfer') {
      if (!account) return setError('Wait for the account details, then make the transfer');
      // What the company sent: the amount the account asked for.
      return void charge({ amount: account.amount });
    }
    return void charge({});
  }

  const payLabel = `Pay ${ngn(data.amount)}`;
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onDone({ status: 'cancelled' });
      }}
      onKeyDown={trapTab}
      className="m-auto w-[calc(100%-1rem)] max-w-2xl overflow-hidden rounded-xl bg-white p-0 shadow-2xl backdrop:bg-black/60"
      data-testid="sandbox-checkout"
    >
      <div className="flex items-start justify-between gap-3 border-b border-slate-200 bg-slate-50 px-4 py-3">
        <div className="min-w-0">
          <p className="text-xs font-semibold tracking-wide text-orange-700 uppercase">Test mode · Sandbox checkout</p>
          <h2 id={titleId} className="heading-card wrap-anywhere text-ink">
            {data.title}
          </h2>
          <BreakableText className="block text-sm wrap-anywhere text-slate-600" text={data.customer.email} />
        </div>
        <div className="text-right">
          <p className="text-xs text-slate-500">Amount</p>
          <p className="text-lg font-bold text-ink" data-testid="sandbox-amount">
            {ngn(data.amount)}
          </p>
        </div>
        <button
          type="button"
          aria-label="Close payment"
          disabled={busy}
          onClick={() => onDone({ status: 'cancelled' })}
          // 44 px square, as every other tap target (the 36 px one was missed for the page behind on a phone).
          className="-m-2 flex size-11 shrink-0 items-center justify-center rounded text-slate-500 hover:bg-slate-200"
        >
          <X aria-hidden className="size-5" />
        </button>
      </div>

      <div className="grid sm:grid-cols-[11rem_1fr]">
        <Tabs
          id={tabsId}
          label="Payment method"
          tabs={methods}
          value={method}
          onChange={choose}
          upDown
          disabled={busy}
          listClassName="flex flex-wrap gap-1 border-b border-slate-200 p-2 sm:flex-col sm:border-r sm:border-b-0"
          tabClassName={(active) =>
            `flex min-h-11 items-center gap-2 whitespace-nowrap rounded-md px-3 text-sm font-semibold ${active ? 'bg-orange-50 text-orange-700' : 'text-slate-600 hover:bg-slate-100'}`
          }
        />

        <form {...tabPanelProps(tabsId, method)} onSubmit={submit} className="space-y-3 p-4" noValidate>
          {method === 'card' && step === 'details' && (
            <>
              <p className="text-sm font-semibold text-ink">Enter your card details to pay</p>
              <label className="block text-sm">
                <span className="mb-1 block font-medium">Card number</span>
                <input
                  className={input}
                  inputMode="numeric"
                  autoComplete="cc-number"
                  placeholder="0000 0000 0000 0000"
                  value={card.number}
                  onChange={(e) => setCard({ ...card, number: groupCard(e.target.value) })}
                />
              </label>
              <div className="grid grid-cols-2 gap-3">
                <label className="block text-sm">
                  <span className="mb-1 block font-medium">Valid till</span>
                  <input
                    className={input}
                    inputMode="numeric"
                    autoComplete="cc-exp"
                    placeholder="MM/YY"
                    value={card.expiry}
                    onChange={(e) => setCard({ ...card, expiry: expiryMask(e.target.value) })}
                  />
                </label>
                <label className="block text-sm">
                  <span className="mb-1 block font-medium">CVV</span>
                  <input
                    className={input}
                    inputMode="numeric"
                    autoComplete="cc-csc"
                    placeholder="123"
                    value={card.cvv}
                    onChange={(e) => setCard({ ...card, cvv: e.target.value.replace(/\D/g, '').slice(0, 4) })}
                  />
                </label>
              </div>
            </>
          )}
          {method === 'card' && step === 'pin' && (
            <label className="block text-sm">
              <span className="mb-1 block font-medium">Enter your 4-digit card PIN to authorize this payment</span>
              <input
                className={input}
                type="password"
                inputMode="numeric"
                autoComplete="off"
                aria-label="Card PIN"
                value={pin}
                onChange={(e) => setPin(e.target.value.replace(/\D/g, '').slice(0, 4))}
                autoFocus
              />
            </label>
          )}
          {method === 'mobilemoney' && step === 'details' && (
            <label className="block text-sm">
              <span className="mb-1 block font-medium">Mobile money number</span>
              <input
                className={input}
                inputMode="tel"
                value={phone}
                onChange={(e) => setPhone(e.target.value.replace(/[^\d+]/g, '').slice(0, 15))}
              />
            </label>
          )}
          {(method === 'card' || method === 'mobilemoney') && step === 'otp' && (
            <label className="block text-sm">
              <span className="mb-1 block font-medium">Enter the OTP sent to your phone</span>
              <input
                className={input}
                inputMode="numeric"
                autoComplete="one-time-code"
                aria-label="OTP"
                value={otp}
                onChange={(e) => setOtp(e.target.value.replace(/\D/g, '').slice(0, 6))}
                autoFocus
              />
            </label>
          )}
          {method === 'ussd' && (
            <>
              <label className="block text-sm">
                <span className="mb-1 block font-medium">Choose your bank</span>
                <select className={input} value={bank} onChange={(e) => setBank(e.target.value)}>
                  {BANKS.map((b) => (
                    <option key={b}>{b}</option>
                  ))}
                </select>
              </label>
              <p className="rounded-md bg-slate-100 p-3 text-sm">
                Dial <strong className="font-mono">{ussdCode(bank, data.reference)}</strong> on your phone to complete
                this payment, then press the button below.
              </p>
            </>
          )}

          {method === 'banktransfer' && <BankTransferPanel reference={data.reference} onAccount={onAccount} />}

          {error && (
            <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
              {error}
            </p>
          )}
          <Button
            type="submit"
            loading={busy}
            disabled={method === 'banktransfer' && !account}
            className="w-full !bg-orange-500 hover:!bg-orange-600"
          >
            {method === 'ussd'
              ? 'I have completed this payment'
              : method === 'banktransfer'
                ? 'I have sent the money'
                : step === 'details'
                  ? payLabel
                  : step === 'pin'
                    ? 'Continue'
                    : 'Authorize payment'}
          </Button>
          <p className="flex items-center justify-center gap-1 text-xs text-slate-500">
            <Lock aria-hidden className="size-3" /> Secured by LegalMarket sandbox · no real money moves
          </p>
        </form>
      </div>

      <div
        className="border-t border-slate-200 bg-amber-50 px-4 py-3 text-xs text-amber-900"
        data-testid="sandbox-test-cards"
      >
        <p className="font-semibold">Test cards (Flutterwave&apos;s published test data)</p>
        <ul className="mt-1 space-y-1">
          <li>
            Successful: <span className="font-mono">{SANDBOX_CARDS.success.number}</span>, CVV{' '}
            {SANDBOX_CARDS.success.cvv}, expiry {SANDBOX_CARDS.success.expiry}, PIN {SANDBOX_CARDS.success.pin}, OTP{' '}
            {SANDBOX_CARDS.success.otp}
          </li>
          <li>
            Insufficient funds: <span className="font-mono">{SANDBOX_CARDS.insufficientFunds.number}</span>, CVV{' '}
            {SANDBOX_CARDS.insufficientFunds.cvv}, expiry {SANDBOX_CARDS.insufficientFunds.expiry}, PIN{' '}
            {SANDBOX_CARDS.insufficientFunds.pin}, OTP {SANDBOX_CARDS.insufficientFunds.otp}
          </li>
          <li>
            Declined, incorrect PIN: <span className="font-mono">{SANDBOX_CARDS.incorrectPin.number}</span>, CVV{' '}
            {SANDBOX_CARDS.incorrectPin.cvv}, expiry {SANDBOX_CARDS.incorrectPin.expiry}, PIN{' '}
            {SANDBOX_CARDS.incorrectPin.pin}, OTP {SANDBOX_CARDS.incorrectPin.otp}
          </li>
          <li>Mobile money: any number, OTP {SANDBOX_OTP}. USSD: press the button after &quot;dialling&quot;.</li>
          <li>Bank transfer: no money moves; press &quot;I have sent the money&quot; to record the transfer.</li>
        </ul>
      </div>
    </dialog>
  );
}
