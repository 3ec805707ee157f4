import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { AddToCartInput, addToCartInput } from '@legalmarket/contracts/commerce';
import { Link, useNavigate, useParams } from 'react-router';
import { CalendarClock, Check, CircleCheck, CircleMinus, FileInput } from 'lucide-react';
import { DELAYS_MS, DELIVERY_NOTICE, quantityOptions } from '@legalmarket/contracts/constants';
import { messages } from '@legalmarket/contracts/messages';
import { paths } from '@/lib/paths';
import { useFormDraft, useSendKey } from '@/lib/drafts';
import { useSession } from '@/lib/use-session';
import { Button } from '@/components/button';
import { ErrorState, Loading, Naira } from '@/components/feedback';
import { FormError, TextArea } from '@/components/field';
import { FormDocumentField } from '@/components/form-document-field';
import { ProductCarousel } from '@/components/product-carousel';
import { getErrorMessage, HttpError } from '@/lib/http';
import { reserve as reserveHere, type ReservedItem } from '@/features/cart/reserved-items';
import { ReviewsSection } from '@/features/reviews/reviews-section';
import { useAddToCart } from './api/add-to-cart';
import { useProduct } from './api/get-product';
import { DeliveryTime, ProductRating } from './product-facts';
import { lazyResolver } from '@/lib/lazy-resolver';
import { useHydrated } from '@/lib/use-hydrated';

/** /pre-cart/{productId}: the product page of spec screen 10. */
export default function PreCartPage() {
  const { productId = '' } = useParams();
  const product = useProduct(productId);

  if (product.isPending) return <Loading label="Loading product..." />;
  if (product.isError) {
    const gone = product.error instanceof HttpError && (product.error.status === 404 || product.error.status === 400);
    return (
      <section className="mx-auto max-w-3xl px-4 py-16 text-center">
        {gone ? (
          <>
            <h1 className="heading-title">{messages.productNotFound}</h1>
            <Link to={paths.products()} className="mt-4 inline-block font-semibold text-brand underline">
              Back to the products
            </Link>
          </>
        ) : (
          <ErrorState message={getErrorMessage(product.error)} onRetry={() => void product.refetch()} />
        )}
      </section>
    );
  }

  const p = product.data;
  return (
    // Room at the bottom on phones for the sticky bar.
    <div className="mx-auto max-w-6xl px-4 pt-10 pb-28 md:pb-10">
      <div className="grid gap-8 md:grid-cols-2">
        <img
          src={p.productImage}
          alt={p.productName}
          width={640}
          height={400}
          className="aspect-[16/10] w-full rounded-xl border border-slate-200 bg-sand object-cover"
        />
        <div>
          <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
            <h1 className="heading-title break-words text-ink">{p.productName}</h1>
            <ProductRating average={p.ratingAverage} count={p.ratingCount} />
          </div>
          {p.whatYouGet && <p className="mt-2 text-lg break-words text-slate-800">{p.whatYouGet}</p>}
          <p className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1">
            <span className="text-2xl font-semibold text-brand">
              <Naira amount={p.productPrice} />
            </span>
            {p.area && <span className="rounded-full bg-sand px-3 py-1 text-sm text-slate-800">{p.area}</span>}
          </p>
          {p.deliveryDays !== null && <DeliveryTime days={p.deliveryDays} className="mt-2" />}
          <p className="mt-4 whitespace-pre-line break-words text-slate-700">{p.productDescription}</p>
          <ProductLists included={p.included} youProvide={p.youProvide} notIncluded={p.notIncluded} />
          <ReserveForm
            product={{
              productId: p._id,
              productName: p.productName,
              productPrice: p.productPrice,
              productImage: p.productImage,
            }}
          />
        </div>
      </div>
      <ReviewsSection productId={p._id} />
      <ProductCarousel excludeIds={[p._id]} />
    </div>
  );
}

/** "What's included / What you provide / Not included", each shown when the product lists any. */
function ProductLists({
  included,
  youProvide,
  notIncluded,
}: {
  included: string[];
  youProvide: string[];
  notIncluded: string[];
}) {
  const lists = [
    { title: "What's included", items: included, Icon: CircleCheck, tone: 'text-emerald-700' },
    { title: 'What you provide', items: youProvide, Icon: FileInput, tone: 'text-brand' },
    { title: 'Not included', items: notIncluded, Icon: CircleMinus, tone: 'text-slate-500' },
  ].filter((l) => l.items.length > 0);
  if (!lists.length) return null;
  return (
    <div className="mt-6 grid gap-5">
      {lists.map(({ title, items, Icon, tone }) => (
        <section key={title} aria-label={title}>
          <h2 className="heading-card text-ink">{title}</h2>
          <ul className="mt-2 space-y-1.5">
            {items.map((item) => (
              <li key={item} className="flex items-start gap-2 break-words text-slate-700">
                <Icon aria-hidden className={`mt-0.5 size-4 shrink-0 ${tone}`} />
                <span className="min-w-0">{item}</span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** The product fields a reservation keeps (a company's server cart takes only the id). */
type ProductSummary = Pick<ReservedItem, 'productId' | 'productName' | 'productPrice' | 'productImage'>;

/** The contract's add-to-cart body without the product, which the page supplies. */
type ReserveValues = Omit<AddToCartInput, 'productId'>;
type ReserveOutput = Omit<z.output<typeof addToCartInput>, 'productId'>;

const resolver = lazyResolver<ReserveValues, ReserveOutput>(() =>
  import('./reserve-resolver').then((m) => m.reserveResolver),
);

function ReserveForm({ product }: { product: ProductSummary }) {
  const session = useSession();
  const navigate = useNavigate();
  const quantityId = useId();
  const isCompany = session?.userType === 'company';
  const [uploading, setUploading] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const add = useAddToCart();
  const hydrated = useHydrated();
  const form = useForm<ReserveValues, unknown, ReserveOutput>({
    resolver,
    defaultValues: { quantity: '1', detail: '', file: undefined, fileName: undefined },
  });
  const { register, handleSubmit, control, formState } = form;
  // The job's brief, kept while a signed-in user writes it (decision 2226).
  // The drafted document dropped as uploaded too long ago to send: named under the field.
  const [staleFiles, setStaleFiles] = useState<string[]>([]);
  const clearDraft = useFormDraft(`brief:${product.productId}`, form, ['detail', 'file', 'fileName'], (n) =>
    setStaleFiles([n]),
  );
  // One key per addition: tapped again or sent again after a lost answer (a reload included), the same
  // addition is made once (decision 2240).
  const addKey = useSendKey(`add:${product.productId}`);

  useEffect(() => {
    if (!done) return;
    const t = setTimeout(() => navigate(paths.cart()), DELAYS_MS.afterSuccess);
    return () => clearTimeout(t);
  }, [done, navigate]);

  const reserve = handleSubmit(async ({ quantity, detail, file, fileName }) => {
    if (isCompany) {
      try {
        const body = {
          productId: product.productId,
          quantity,
          ...(detail ? { detail } : {}),
          ...(file ? { file, fileName } : {}),
        };
        const res = await add.mutateAsync({ ...body, key: addKey.keyFor(body) });
        addKey.done();
        clearDraft();
        // The spec's message, then what happened to a line already in the cart (decision 1800).
        setDone([res.message || messages.addedToCart, ...res.notes].join(' '));
      } catch {
        // shown from add.error
      }
      return;
    }
    // A visitor or another role keeps the reservation in this browser (spec section 4).
    const reservedNote = reserveHere(product, quantity, detail || null);
    clearDraft();
    navigate(paths.cart(), reservedNote ? { state: { reservedNote } } : undefined);
  });

  const formId = useId();
  const busy = add.isPending || formState.isSubmitting;
  return (
    <>
      <form id={formId} className="mt-6" aria-label="Reserve this product" noValidate onSubmit={reserve}>
        <fieldset disabled={!hydrated} className="m-0 grid min-w-0 gap-4 border-0 p-0">
          <div>
            <label htmlFor={quantityId} className="mb-1 block text-sm font-medium text-slate-800">
              Quantity
            </label>
            <select
              id={quantityId}
              aria-invalid={formState.errors.quantity ? true : undefined}
              aria-describedby={formState.errors.quantity ? `${quantityId}-error` : undefined}
              className="block min-h-11 w-28 rounded-md border border-slate-300 bg-white px-3"
              {...register('quantity')}
            >
              {quantityOptions.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
            {formState.errors.quantity && (
              <p id={`${quantityId}-error`} role="alert" className="mt-1 text-sm text-red-700">
                {formState.errors.quantity.message}
              </p>
            )}
          </div>
          <p className="flex items-center gap-2 rounded-md bg-sand px-3 py-2 text-sm text-slate-800">
            <CalendarClock aria-hidden className="size-4 shrink-0 text-brand" />
            {DELIVERY_NOTICE}
          </p>
          <TextArea
            label="Give details"
            maxLength={5000}
            hint="What should the lawyer know? Parties, deadlines, anything special."
            error={formState.errors.detail?.message}
            {...register('detail')}
          />
          {isCompany ? (
            <FormDocumentField
              staleFiles={staleFiles}
              control={control}
              label="Upload a document (optional)"
              hint="PDF, Word (DOC, DOCX) or a picture, at most 10 MB."
              onBusyChange={setUploading}
            />
          ) : (
            <p className="text-sm text-slate-600">
              {session ? 'Documents are attached by companies.' : 'Log in as a company to attach a document.'}
            </p>
          )}
          <FormError message={add.error ? getErrorMessage(add.error) : null} />
          <div aria-live="polite">
            {done && (
              <p
                role="status"
                className="flex items-center gap-2 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800"
              >
                <Check aria-hidden className="size-4" /> {done}
              </p>
            )}
          </div>
          <Button
            type="submit"
            loading={add.isPending || formState.isSubmitting}
            disabled={uploading || done !== null}
            className="w-full sm:w-48"
          >
            Reserve
          </Button>
        </fieldset>
      </form>
      {/* Phones: the price and the form's submit stay in reach while the page scrolls (issue 18). */}
      <div className="fixed inset-x-0 bottom-0 z-30 flex items-center justify-between gap-3 border-t border-slate-200 bg-white px-4 py-3 shadow-[0_-2px_8px_rgb(0_0_0/0.08)] md:hidden">
        <span className="min-w-0">
          <span className="block truncate text-sm text-slate-600">{product.productName}</span>
          <span className="text-lg font-bold text-brand">
            <Naira amount={product.productPrice} />
          </span>
        </span>
        <Button
          type="submit"
          form={formId}
          loading={busy}
          disabled={!hydrated || uploading || done !== null}
          className="shrink-0"
        >
          {isCompany ? 'Add to cart' : 'Reserve'}
        </Button>
      </div>
    </>
  );
}
