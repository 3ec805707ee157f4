import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { AddToCartInput, addToCartInput } from '@legalmarket/contracts/commerce';
import { Link, useNavigate, useParams } from 'react-router';
import { CalendarClock, Check } from 'lucide-react';
import { DELAYS_MS, DELIVERY_NOTICE, quantityOptions } from '@legalmarket/contracts/constants';
import { messages } from '@legalmarket/contracts/messages';
import { paths } from '@/lib/paths';
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
            <h1 className="text-2xl font-bold">{messages.productNotFound}</h1>
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
    <div className="mx-auto max-w-6xl px-4 py-10">
      <div className="grid gap-8 md:grid-cols-2">
        <img
          src={p.productImage}
          alt={p.productName}
          width={640}
          height={400}
          className="aspect-[16/10] w-full rounded-xl border border-slate-200 bg-sand object-cover"
        />
        <div>
          <h1 className="text-3xl font-bold text-ink">{p.productName}</h1>
          <p className="mt-2 text-2xl font-semibold text-brand">
            <Naira amount={p.productPrice} />
          </p>
          <p className="mt-4 whitespace-pre-line text-slate-700">{p.productDescription}</p>
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
  const { register, handleSubmit, control, formState } = useForm<ReserveValues, unknown, ReserveOutput>({
    resolver,
    defaultValues: { quantity: '1', detail: '', file: undefined, fileName: undefined },
  });

  useEffect(() => {
    if (!done) return;
    const t = setTimeout(() => navigate(paths.cart()), DELAYS_MS.afterSuccess);
    return () => clearTimeout(t);
  }, [done, navigate]);

  const reserve = handleSubmit(async ({ quantity, detail, file, fileName }) => {
    if (isCompany) {
      try {
        const res = await add.mutateAsync({
          productId: product.productId,
          quantity,
          ...(detail ? { detail } : {}),
          ...(file ? { file, fileName } : {}),
        });
        // The spec's message, then what happened to a line already in the cart (decision 1800).
        setDone([res.message || messages.addedToCart, ...res.notes].join(' '));
      } catch {
        // shown from add.error
      }
      return;
    }
    // A visitor or another role keeps the reservation in this browser (spec section 4).
    const reservedNote = reserveHere(product, quantity, detail || null);
    navigate(paths.cart(), reservedNote ? { state: { reservedNote } } : undefined);
  });

  return (
    <form className="mt-6" aria-label="Reserve this product" noValidate onSubmit={reserve}>
      <fieldset disabled={!hydrated} className="m-0 grid min-w-0 gap-4 border-0 p-0">
        <div>
          <label htmlFor={quantityId} className="mb-1 block text-sm font-medium text-slate-800">
            Quantity
          </label>
          <select
            id={quantityId}
            aria-invalid={formState.errors.quantity ? true : undefined}
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
            <p role="alert" className="mt-1 text-sm text-red-700">
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
  );
}
