import { lazy, memo, startTransition, Suspense, useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Check } from 'lucide-react';
import { PACKAGES } from '@legalmarket/contracts/constants';
import type { Product } from '@legalmarket/contracts/catalogue';
import { paths } from '@/lib/paths';
import { useSession } from '@/lib/use-session';
import { EmptyState, ErrorState, Loading, Naira } from '@/components/feedback';
import { ConfirmDialog } from '@/components/modal';
import { Tabs } from '@/components/tabs';
import { getErrorMessage } from '@/lib/http';
import { useDeleteProduct } from './api/delete-product';
import { useProducts } from './api/get-products';
import { ProductCard } from './product-card';

// Only admins edit here: the form and what it imports load when an admin opens it, not for every visitor.
const ProductForm = lazy(() => import('./product-form').then((m) => ({ default: m.ProductForm })));

type Tab = 'single' | 'packages';
const TABS = [
  { id: 'single', label: 'Single' },
  { id: 'packages', label: 'Packages' },
] as const;

/** Cards built in the first render; the others follow right after the first paint. */
const FIRST_CARDS = 6;
/** Cards whose pictures are fetched at once: a phone's first screen shows two. */
const EAGER_PICTURES = 2;

/** /products: "Shop our products" with the Single and Packages tabs (spec screens 8 and 9). */
const noSubscribe = () => () => {};
/**
 * The area asked for (`?area=`), once hydrated: the server renders /products from its path alone, so
 * the first client render must match it; the filter applies right after.
 */
function useArea() {
  const [params] = useSearchParams();
  const hydrated = useSyncExternalStore(
    noSubscribe,
    () => true,
    () => false,
  );
  return hydrated ? params.get('area') : null;
}

export default function ProductsPage() {
  const area = useArea();
  const [tab, setTab] = useState<Tab>('single');
  const [packagesShown, setPackagesShown] = useState(false);
  const choose = (next: Tab) => {
    setTab(next);
    if (next === 'packages') setPackagesShown(true);
  };
  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="mb-6 text-3xl font-bold text-ink">Shop our products</h1>
      <Tabs label="Product types" tabs={TABS} value={tab} onChange={choose} />
      {/* A panel stays built once shown: back on Single, the 200 cards are shown again, not built again. */}
      <div role="tabpanel" aria-label="Single" hidden={tab !== 'single'}>
        {area && (
          <div className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-1">
            <h2 className="text-xl font-semibold text-ink">{area}</h2>
            <Link
              to={paths.products()}
              className="inline-flex min-h-11 items-center font-semibold text-brand underline"
            >
              Show all products
            </Link>
          </div>
        )}
        <SingleProducts active={tab === 'single'} area={area} />
      </div>
      <div role="tabpanel" aria-label="Packages" hidden={tab !== 'packages'}>
        {packagesShown && <Packages />}
      </div>
    </section>
  );
}

/** At the latest, the cards after the first ones render this long after the first ones. */
const REST_AFTER_MS = 2000;

/**
 * How many of `total` cards to render: `first` at once, the others once the first picture has been
 * painted (call `firstPainted` from its load event), or REST_AFTER_MS after at the latest. Building
 * 200 cards on a slow phone is a long task; done before the first picture, it held that picture (the
 * largest element) off the screen.
 */
function useGrowingCount(total: number, first: number) {
  const [all, setAll] = useState(false);
  const [painted, setPainted] = useState(false);
  const waiting = !all && total > first;
  useEffect(() => {
    if (!waiting) return;
    // A transition: a tap meanwhile is not held up by it.
    const timer = window.setTimeout(() => startTransition(() => setAll(true)), painted ? 0 : REST_AFTER_MS);
    return () => clearTimeout(timer);
  }, [waiting, painted]);
  // The load event comes before the frame that paints the picture: after that frame.
  const firstPainted = useCallback(() => requestAnimationFrame(() => setPainted(true)), []);
  return [all ? total : Math.min(total, first), firstPainted] as const;
}

const SingleProducts = memo(function SingleProducts({ active, area }: { active: boolean; area: string | null }) {
  const session = useSession();
  const isAdmin = session?.userType === 'admin';
  const all = useProducts();
  const products = area && all.data ? { ...all, data: all.data.filter((p) => p.category === area) } : all;
  const remove = useDeleteProduct();
  const [editing, setEditing] = useState<Product | null>(null);
  const [confirm, setConfirm] = useState<Product | null>(null);
  const [notice, setNotice] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);
  const [shown, firstPainted] = useGrowingCount(products.data?.length ?? 0, FIRST_CARDS);
  const edit = useCallback((p: Product) => {
    setNotice(null);
    setEditing(p);
  }, []);
  // Leaving the tab leaves an edit and a notice behind, as when this panel was built again each time.
  const [wasActive, setWasActive] = useState(active);
  if (active !== wasActive) {
    setWasActive(active);
    if (!active) {
      setEditing(null);
      setNotice(null);
    }
  }

  if (editing) {
    return (
      <div className="max-w-xl">
        <h2 className="mb-4 text-xl font-semibold">Edit {editing.productName}</h2>
        <Suspense fallback={<Loading />}>
          <ProductForm
            product={editing}
            onCancel={() => setEditing(null)}
            onSaved={(_p, message) => {
              setEditing(null);
              setNotice({ text: message, tone: 'success' });
            }}
          />
        </Suspense>
      </div>
    );
  }

  return (
    <>
      <div aria-live="polite">
        {notice && (
          <p
            role={notice.tone === 'error' ? 'alert' : 'status'}
            className={`mb-4 flex items-center gap-2 rounded-md px-3 py-2 text-sm ${notice.tone === 'success' ? 'bg-emerald-50 text-emerald-800' : 'bg-red-50 text-red-800'}`}
          >
            {notice.tone === 'success' && <Check aria-hidden className="size-4" />}
            {notice.text}
          </p>
        )}
      </div>
      {products.isPending ? (
        <Loading label="Loading products..." />
      ) : products.isError ? (
        <ErrorState message={getErrorMessage(products.error)} onRetry={() => void products.refetch()} />
      ) : products.data.length === 0 ? (
        <EmptyState>
          No products yet.
          {isAdmin && (
            <>
              {' '}
              <Link className="font-semibold text-brand underline" to={paths.adminNewProduct()}>
                Create a product
              </Link>
            </>
          )}
        </EmptyState>
      ) : (
        <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-label="Products">
          {products.data.slice(0, shown).map((p, i) => (
            <ProductCard
              key={p._id}
              product={p}
              isAdmin={isAdmin}
              eager={i < EAGER_PICTURES}
              onPainted={i === 0 ? firstPainted : undefined}
              onEdit={edit}
              onDelete={setConfirm}
            />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={confirm !== null}
        title="Delete this product?"
        body={
          <p>
            <strong>{confirm?.productName}</strong> will no longer be on sale. Jobs already bought keep it.
          </p>
        }
        confirmLabel="Delete"
        busy={remove.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={async () => {
          if (!confirm) return;
          try {
            const res = await remove.mutateAsync(confirm._id);
            setNotice({ text: res.message, tone: 'success' });
          } catch (err) {
            setNotice({ text: getErrorMessage(err), tone: 'error' });
          } finally {
            setConfirm(null);
          }
        }}
      />
    </>
  );
});

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function Packages() {
  return (
    <ul className="grid grid-cols-1 gap-6 md:grid-cols-3" aria-label="Packages">
      {PACKAGES.map((p) => {
        const lines = [
          plural(p.review, 'agreement review', 'agreement reviews'),
          plural(p.draftNo, 'draft', 'drafts'),
          plural(p.legalOpinionNo, 'legal opinion', 'legal opinions'),
          ...(p.policyNo ? [plural(p.policyNo, 'policy document', 'policy documents')] : []),
          ...(p.percentOff ? [`${p.percentOff}% off all single products`] : []),
        ];
        return (
          <li
            key={p.id}
            className={`flex flex-col rounded-xl border p-6 shadow-sm ${p.packageType === 'Silver' ? 'border-brand ring-2 ring-brand/20' : 'border-slate-200'}`}
          >
            <h2 className="text-xl font-bold text-ink">{p.packageType}</h2>
            <p className="mt-2 text-3xl font-bold text-brand">
              <Naira amount={p.packageAmount} />
              <span className="text-base font-medium text-slate-600"> / {plural(p.month, 'month', 'months')}</span>
            </p>
            <ul className="mt-4 flex-1 space-y-2 text-slate-700">
              {lines.map((l) => (
                <li key={l} className="flex items-start gap-2">
                  <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-brand" />
                  {l}
                </li>
              ))}
            </ul>
            <Link
              to={paths.signupCompany()}
              className="mt-6 inline-flex min-h-11 items-center justify-center rounded-md bg-brand px-4 font-semibold text-white hover:bg-brand-dark"
              aria-label={`Buy the ${p.packageType} package`}
            >
              Buy
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
