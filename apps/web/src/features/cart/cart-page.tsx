import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import type { CartLine, CartView } from '@legalmarket/contracts/commerce';
import { DELAYS_MS } from '@legalmarket/contracts/constants';
import { toKobo } from '@legalmarket/contracts/format';
import { VAT_RATE_PERCENT, vatIncludedKobo } from '@legalmarket/contracts/vat';
import { messages } from '@legalmarket/contracts/messages';
import { paths } from '@/lib/paths';
import { useHydrated } from '@/lib/use-hydrated';
import { useRenderedWith } from '@/lib/page-data';
import { useSession } from '@/lib/use-session';
import { Button } from '@/components/button';
import { DocumentLink } from '@/components/document-link';
import { EmptyState, ErrorState, Loading, Naira, SuccessNote } from '@/components/feedback';
import { ConfirmDialog, Modal } from '@/components/modal';
import { ProductCarousel } from '@/components/product-carousel';
import { SectionBoundary } from '@/components/section-boundary';
import { startCheckout, verifyPayment } from '@/features/checkout/checkout-api';
import { usePayment } from '@/features/checkout/use-payment';
import { forgetOpened, openedReference, rememberOpened } from '@/features/checkout/opened-payment';
import { paymentNotMade, WINDOW_OFFLINE } from '@/features/checkout/payment-messages';
import { isAnswerLost } from '@/lib/answer-lost';
import { getErrorMessage, HttpError, isNetworkError } from '@/lib/http';
import { useClearCart } from './api/clear-cart';
import { useCart } from './api/get-cart';
import { useRemoveFromCart } from './api/remove-from-cart';
import { useRestoreLine } from './api/restore-line';
import { clearReservedItems, readReservedItems, writeReservedItems, type ReservedItem } from './reserved-items';
import { cartKeys } from './api/keys';
import { dismissLastMove, useLastMove } from './move-reservations';

/**
 * The Remove (or Clear Cart) button tapped leaves with what it removed, and focus would fall to the
 * page's top: `moveFocus()` sends it, once rendered, to Undo or else to the notice saying what happened.
 */
function useFocusAfterRemoval() {
  const undoRef = useRef<HTMLButtonElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const [turn, setTurn] = useState(0);
  useEffect(() => {
    if (turn) (undoRef.current ?? noticeRef.current)?.focus();
  }, [turn]);
  return { undoRef, noticeRef, moveFocus: () => setTurn((t) => t + 1) };
}

/**
 * The level between the page's h1 and each line's h3 (product names), for a screen reader's list of
 * headings; seen, the list speaks for itself.
 */
const ItemsHeading = () => <h2 className="sr-only">Items in your cart</h2>;

/** One line as the cart shows it: the contract's cart line (local reservations are mapped to it). */
type Line = CartLine;

type Result = { tone: 'success' | 'error' | 'neutral'; title: string; body?: string } | null;

function CartLine({ line, onRemove, removing }: { line: Line; onRemove: () => void; removing: boolean }) {
  const ready = useHydrated(); // (see Summary)
  return (
    <li className="flex gap-3 py-4 sm:gap-4">
      <img
        src={line.productImage}
        alt=""
        className="size-20 shrink-0 rounded-md border border-slate-200 object-cover sm:size-24"
        loading="lazy"
      />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h3 className="font-semibold text-ink">
            <Link to={paths.preCart(line.productId)} className="hover:underline">
              {line.productName}
            </Link>
          </h3>
          <p className="font-semibold text-ink">
            <Naira amount={line.price * line.quantity} />
          </p>
        </div>
        <p className="mt-1 text-sm text-slate-600">
          Quantity: <span className="font-medium text-ink">{line.quantity}</span> · <Naira amount={line.price} /> each
          {line.listPrice !== undefined && (
            <span className="ml-1 text-emerald-800" data-testid="line-discount">
              (
              <s className="text-slate-500">
                <Naira amount={line.listPrice} />
              </s>{' '}
              {line.percentOff}% plan discount)
            </span>
          )}
        </p>
        {line.detail && <p className="mt-1 text-sm wrap-anywhere whitespace-pre-line text-slate-700">{line.detail}</p>}
        {line.file && (
          <p className="mt-1 text-sm">
            <DocumentLink url={line.file} name={line.fileName} />
          </p>
        )}
        <button
          type="button"
          onClick={onRemove}
          disabled={removing || !ready}
          aria-label={`Remove ${line.productName}`}
          className="mt-2 inline-flex min-h-11 items-center gap-1 rounded-md px-2 text-sm font-semibold text-red-700 hover:bg-red-50 disabled:opacity-50"
        >
          <Trash2 aria-hidden className="size-4" /> Remove
        </button>
      </div>
    </li>
  );
}

function Summary({
  lines,
  total,
  discount,
  onPurchase,
  onClear,
  purchasing,
}: {
  lines: Line[];
  total: number;
  /** What the company's plan takes off (computed by the server). */
  discount?: { percentOff: number; saved: number };
  onPurchase: () => void;
  onClear: () => void;
  purchasing: boolean;
}) {
  const headingId = useId();
  // A cart rendered on the server (decision 2100) shows its buttons before the page's code runs: a tap
  // then would be lost without a word, so they wait for it, as the product page's form does.
  const ready = useHydrated();
  const count = lines.reduce((s, l) => s + l.quantity, 0);
  return (
    <section aria-labelledby={headingId} className="h-fit rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id={headingId} className="heading-card text-ink">
        Order summary
      </h2>
      <dl className="mt-3 space-y-2 text-sm">
        <div className="flex justify-between">
          <dt className="text-slate-600">Items ({count})</dt>
          <dd>
            <Naira amount={discount ? Math.round((total + discount.saved) * 100) / 100 : total} />
          </dd>
        </div>
        {discount && (
          <div className="flex justify-between text-emerald-800" data-testid="cart-discount">
            <dt>Plan discount ({discount.percentOff}%)</dt>
            <dd>
              −<Naira amount={discount.saved} exact />
            </dd>
          </div>
        )}
        <div className="flex justify-between">
          <dt className="text-slate-600">
            Tax <span className="text-xs">(VAT {VAT_RATE_PERCENT}%)</span>
          </dt>
          {/* The VAT the price includes: the receipt prints the same figure (contracts' vatIncludedKobo). */}
          <dd>
            (incl) <Naira amount={vatIncludedKobo(toKobo(total)) / 100} exact />
          </dd>
        </div>
        <div className="flex justify-between border-t border-slate-200 pt-2 text-base font-bold text-ink">
          <dt>Total</dt>
          <dd data-testid="cart-total">
            <Naira amount={total} />
          </dd>
        </div>
      </dl>
      <div className="mt-4 flex flex-col gap-2">
        <Button onClick={onPurchase} loading={purchasing} disabled={!ready}>
          Purchase
        </Button>
        <Button variant="secondary" onClick={onClear} disabled={purchasing || !ready}>
          Clear Cart
        </Button>
      </div>
    </section>
  );
}

/** A company's cart: the server cart, checkout, the payment dialog and the server's verification. */
function CompanyCart() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const cart = useCart(true);
  const remove = useRemoveFromCart();
  const restore = useRestoreLine();
  const clear = useClearCart();
  const { pay, dialog } = usePayment();
  // The line the last Remove took out, so its notice can offer Undo.
  const [removed, setRemoved] = useState<Line | null>(null);
  const [confirmClear, setConfirmClear] = useState(false);
  const [purchasing, setPurchasing] = useState(false);
  const [result, setResult] = useState<Result>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { undoRef, noticeRef, moveFocus } = useFocusAfterRemoval();
  const moved = useLastMove();
  // Shown once: leaving the cart forgets it.
  useEffect(() => () => dismissLastMove(), []);
  // Reservations just moved (decision 1800): a cart read started before the move must not hide them.
  useEffect(() => {
    if (!moved) return;
    void qc.cancelQueries({ queryKey: cartKeys.cart() }).then(() => {
      qc.setQueryData<CartView>(cartKeys.cart(), moved.cart);
      void qc.invalidateQueries({ queryKey: cartKeys.cart() });
    });
  }, [moved, qc]);

  useEffect(() => {
    if (result?.tone !== 'success') return;
    const timer = window.setTimeout(() => navigate(paths.products()), DELAYS_MS.afterSuccess);
    return () => window.clearTimeout(timer);
  }, [result, navigate]);

  const userId = useSession()?.userId ?? null;
  const paidNow = () => {
    void qc.invalidateQueries({ queryKey: cartKeys.cart() });
    void qc.invalidateQueries({ queryKey: ['company-jobs'] });
    void qc.invalidateQueries({ queryKey: ['company-orders'] });
  };
  const unconfirmed: Result = {
    tone: 'error',
    title: messages.paymentFailed,
    body: 'No internet connection: we could not confirm your payment. It is checked again automatically; look at your orders once you are back online before paying again.',
  };

  /**
   * A dialog this tab opened whose payment the server never answered for (a lost confirmation, a
   * closed window): asked about by reference before the card can be charged again (decision 2242).
   * Answers what to show instead of paying, or null when nothing was paid under it.
   */
  async function earlierPayment(): Promise<Result> {
    const reference = userId ? openedReference(userId) : null;
    if (!userId || !reference) return null;
    try {
      const verified = await verifyPayment(reference);
      forgetOpened(userId, reference);
      paidNow();
      if (verified.status === 'pending') return { tone: 'success', title: verified.message };
      return { tone: 'success', title: messages.paymentSuccessful, body: messages.checkoutSuccessful };
    } catch (err) {
      // Refused (nothing successful under it) or no longer this company's order: pay as usual.
      if (err instanceof HttpError && [400, 403, 404].includes(err.status)) {
        forgetOpened(userId, reference);
        return null;
      }
      // A gateway's 502/504 is no answer either (decision 2307): the payment may well be there.
      return isNetworkError(err) || isAnswerLost(err) ? unconfirmed : { tone: 'error', title: messages.paymentFailed };
    }
  }

  async function purchase() {
    setActionError(null);
    setPurchasing(true);
    try {
      const earlier = await earlierPayment();
      if (earlier) {
        setResult(earlier);
        return;
      }
      let data;
      try {
        data = await startCheckout();
      } catch (err) {
        setResult({
          tone: 'error',
          title: messages.checkoutFailed,
          body: err instanceof HttpError && err.status < 500 ? err.message : undefined,
        });
        return;
      }
      let paid;
      try {
        if (userId) rememberOpened(userId, data.reference);
        paid = await pay(data);
      } catch (err) {
        // The Flutterwave script could not load: offline, that is the connection, and nothing was charged.
        setResult(
          navigator.onLine === false
            ? WINDOW_OFFLINE
            : { tone: 'error', title: messages.paymentFailed, body: getErrorMessage(err) },
        );
        return;
      }
      if (paid.status !== 'successful') {
        // A decline charged nothing; a closed window may hide a transfer still on its way, so it is kept.
        if (paid.status === 'failed' && userId) forgetOpened(userId, data.reference);
        setResult(paymentNotMade(paid));
        void qc.invalidateQueries({ queryKey: cartKeys.cart() });
        return;
      }
      try {
        const verified = await verifyPayment(data.reference, paid.transactionId);
        if (userId) forgetOpened(userId, data.reference);
        paidNow();
        if (verified.status === 'pending') setResult({ tone: 'success', title: verified.message });
        // Paid and fulfilled: the spec's two messages, "Payment successful!" and "Checkout successful!".
        else setResult({ tone: 'success', title: messages.paymentSuccessful, body: messages.checkoutSuccessful });
      } catch (err) {
        if (userId && err instanceof HttpError && err.status === 400) forgetOpened(userId, data.reference);
        setResult(
          isNetworkError(err) || isAnswerLost(err) ? unconfirmed : { tone: 'error', title: messages.paymentFailed },
        );
      }
    } finally {
      setPurchasing(false);
    }
  }

  if (cart.isPending) return <Loading label="Loading your cart..." />;
  if (cart.isError) return <ErrorState message={getErrorMessage(cart.error)} onRetry={() => void cart.refetch()} />;
  const lines = cart.data.products;

  return (
    <>
      {moved && (
        <SuccessNote className="mb-4">
          {moved.message}
          {moved.notes.map((n) => (
            <span key={n} className="block">
              {n}
            </span>
          ))}
        </SuccessNote>
      )}
      {lines.length === 0 && !result ? (
        <EmptyState>Your cart is empty</EmptyState>
      ) : (
        <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
          <ItemsHeading />
          <ul
            className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white px-4"
            aria-label="Items in your cart"
          >
            {lines.map((l) => (
              <CartLine
                key={l.productId}
                line={l}
                removing={remove.isPending && remove.variables === l.productId}
                onRemove={() => {
                  setNotice(null);
                  setRemoved(null);
                  setActionError(null);
                  remove.mutate(l.productId, {
                    onSuccess: (res) => {
                      setNotice(res.message || messages.productRemovedFromCart);
                      setRemoved(l);
                      moveFocus();
                    },
                    onError: (err) => setActionError(getErrorMessage(err)),
                  });
                }}
              />
            ))}
            {lines.length === 0 && <li className="py-6 text-center text-slate-600">Your cart is empty</li>}
          </ul>
          {lines.length > 0 && (
            <Summary
              lines={lines}
              total={cart.data.bill}
              discount={cart.data.discount}
              purchasing={purchasing}
              onPurchase={() => void purchase()}
              onClear={() => setConfirmClear(true)}
            />
          )}
        </div>
      )}
      {actionError && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {actionError}
        </p>
      )}
      {notice && (
        <div ref={noticeRef} tabIndex={-1} className="mt-3 flex flex-wrap items-center gap-2">
          <SuccessNote className="min-w-0 flex-1">{notice}</SuccessNote>
          {removed && (
            <button
              ref={undoRef}
              type="button"
              disabled={restore.isPending}
              aria-label={`Undo: put ${removed.productName} back in the cart`}
              className="inline-flex min-h-11 items-center rounded-md px-3 text-sm font-semibold text-brand underline hover:bg-slate-100 disabled:opacity-50"
              onClick={() => {
                setActionError(null);
                restore.mutate(removed, {
                  onSuccess: () => {
                    setRemoved(null);
                    setNotice(`${removed.productName} is back in your cart`);
                    moveFocus();
                  },
                  onError: (err) => setActionError(getErrorMessage(err)),
                });
              }}
            >
              {restore.isPending ? 'Putting it back...' : 'Undo'}
            </button>
          )}
        </div>
      )}
      {dialog}
      <ConfirmDialog
        open={confirmClear}
        title="Clear your cart?"
        body="All items will be removed from your cart."
        confirmLabel="Clear Cart"
        busy={clear.isPending}
        onCancel={() => setConfirmClear(false)}
        onConfirm={() => {
          setNotice(null);
          setRemoved(null);
          setActionError(null);
          clear.mutate(undefined, {
            onSettled: () => setConfirmClear(false),
            onSuccess: (res) => {
              setNotice(res.message || messages.cartCleared);
              moveFocus();
            },
            onError: (err) => setActionError(getErrorMessage(err)),
          });
        }}
      />
      <Modal
        open={Boolean(result)}
        title={result?.title ?? ''}
        tone={result?.tone}
        onClose={() => (result?.tone === 'success' ? navigate(paths.products()) : setResult(null))}
      >
        {result?.body && <p>{result.body}</p>}
        {result?.tone === 'success' && <p>Your jobs are on your dashboard. Taking you back to the products...</p>}
      </Modal>
      <div className="mt-10">
        <ProductCarousel excludeIds={lines.map((l) => l.productId)} />
      </div>
    </>
  );
}

/** A visitor's (or lawyer's, or admin's) local reservations. */
function LocalCart() {
  const navigate = useNavigate();
  const [items, setItems] = useState(readReservedItems);
  const [confirmClear, setConfirmClear] = useState(false);
  // What Reserve said about a product reserved again (pre-cart page), shown once.
  const reservedNote = (useLocation().state as { reservedNote?: string } | null)?.reservedNote ?? null;
  const [notice, setNotice] = useState<string | null>(reservedNote);
  // The reservation the last Remove took out and where it was, so a mistaken tap can be undone as the
  // company cart's can: Remove asks nothing, and a brief typed on the product page would be lost.
  const [removed, setRemoved] = useState<{ item: ReservedItem; at: number } | null>(null);
  // Focus goes to the notice, which holds Undo as its next stop (the notice is what a reader hears first).
  const { noticeRef, moveFocus } = useFocusAfterRemoval();
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === null || e.key === 'reservedItems') setItems(readReservedItems());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
  const lines: Line[] = useMemo(
    () =>
      items.map((i) => ({
        productId: i.productId,
        productName: i.productName,
        productImage: i.productImage,
        price: i.productPrice,
        quantity: i.quantity,
        detail: i.detail ?? null,
        file: i.file ?? null,
        fileName: i.fileName ?? null,
      })),
    [items],
  );
  const total = lines.reduce((s, l) => s + l.price * l.quantity, 0);
  const update = (next: typeof items) => {
    writeReservedItems(next);
    setItems(next);
  };

  return (
    <>
      {lines.length === 0 ? (
        <EmptyState>Your cart is empty</EmptyState>
      ) : (
        <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
          <ItemsHeading />
          <ul
            className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white px-4"
            aria-label="Items in your cart"
          >
            {lines.map((l, i) => (
              <CartLine
                key={`${l.productId}-${i}`}
                line={l}
                removing={false}
                onRemove={() => {
                  update(items.filter((_, k) => k !== i));
                  setRemoved({ item: items[i], at: i });
                  setNotice(messages.productRemovedFromCart);
                  moveFocus();
                }}
              />
            ))}
          </ul>
          <Summary
            lines={lines}
            total={total}
            purchasing={false}
            onPurchase={() => {
              // The spec clears them here; they are kept until they are in the account's cart (decision 1800).
              navigate(paths.signupCompany());
            }}
            onClear={() => setConfirmClear(true)}
          />
        </div>
      )}
      <ConfirmDialog
        open={confirmClear}
        title="Clear your cart?"
        body="All reserved items will be removed."
        confirmLabel="Clear Cart"
        onCancel={() => setConfirmClear(false)}
        onConfirm={() => {
          clearReservedItems();
          setItems([]);
          setRemoved(null);
          setConfirmClear(false);
          setNotice(messages.cartCleared);
          moveFocus();
        }}
      />
      {lines.length > 0 && (
        <p className="mt-3 text-sm text-slate-600">
          Reserved items stay in this browser and move into your cart when you log in as a company.
        </p>
      )}
      {notice && (
        <div ref={noticeRef} tabIndex={-1} className="mt-3 flex flex-wrap items-center gap-2">
          <SuccessNote className="min-w-0 flex-1">{notice}</SuccessNote>
          {removed && (
            <button
              type="button"
              aria-label={`Undo: put ${removed.item.productName} back in the cart`}
              className="inline-flex min-h-11 items-center rounded-md px-3 text-sm font-semibold text-brand underline hover:bg-slate-100"
              onClick={() => {
                const now = readReservedItems();
                // Reserved again meanwhile (another tab): one line per product, so it is not added twice.
                if (!now.some((x) => x.productId === removed.item.productId))
                  update([...now.slice(0, removed.at), removed.item, ...now.slice(removed.at)]);
                setRemoved(null);
                setNotice(`${removed.item.productName} is back in your cart`);
                moveFocus();
              }}
            >
              Undo
            </button>
          )}
        </div>
      )}
      <div className="mt-10">
        <ProductCarousel excludeIds={lines.map((l) => l.productId)} />
      </div>
    </>
  );
}

export default function CartPage() {
  const session = useSession();
  // The server renders a company's cart when the page's cookie names its session (decision 2100), and
  // otherwise the shell (decision 1850): a visitor's reservations live in this browser. The hydration
  // that takes the HTML over renders the same, and the session's own view comes in the next render.
  const hydrated = useHydrated();
  const rendered = useRenderedWith('/api/cart');
  const company = hydrated ? session?.userType === 'company' : rendered;
  return (
    <section className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="heading-title mb-6 text-ink">Your Selections</h1>
      {!hydrated && !rendered ? (
        <Loading label="Loading your cart..." />
      ) : (
        <SectionBoundary>{company ? <CompanyCart /> : <LocalCart />}</SectionBoundary>
      )}
    </section>
  );
}
