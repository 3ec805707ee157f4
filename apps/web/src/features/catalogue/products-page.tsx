import { lazy, memo, startTransition, Suspense, useCallback, useEffect, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Check, Search } from 'lucide-react';
import { EXPERTISE, PACKAGES } from '@legalmarket/contracts/constants';
import type { Product } from '@legalmarket/contracts/catalogue';
import type { PlanTier } from '@legalmarket/contracts/plans';
import { paths } from '@/lib/paths';
import { rememberPlanTier } from '@/features/plans/plan-intent';
import { useSession } from '@/lib/use-session';
import { EmptyState, ErrorState, Loading, Naira } from '@/components/feedback';
import { ConfirmDialog } from '@/components/modal';
import { Tabs, tabPanelProps } from '@/components/tabs';
import { getErrorMessage } from '@/lib/http';
import { useFocusOnSwitch } from '@/lib/focus-on-switch';
import { useDeleteProduct } from './api/delete-product';
import { useProducts } from './api/get-products';
import { ProductCard } from './product-card';
import { filtersToSearch, isFiltered, productsUrlOf, readFilters, type ProductFilters } from './product-filters';

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

/**
 * /products: "Shop our products" with the Single and Packages tabs (spec screens 8 and 9). Single has
 * the search and filters of issue 20, kept in the address (`?q=&area=&min=&max=`): the server renders
 * the filtered list for a filtered address, and the API does the filtering (decision 2010).
 */
export default function ProductsPage() {
  const tabsId = useId();
  const [params, setParams] = useSearchParams();
  const query = params.toString();
  const search = query ? `?${query}` : '';
  const filters = readFilters(params);
  const [tab, setTab] = useState<Tab>('single');
  const [packagesShown, setPackagesShown] = useState(false);
  const choose = (next: Tab) => {
    setTab(next);
    if (next === 'packages') setPackagesShown(true);
  };
  const apply = useCallback(
    (next: ProductFilters) => setParams(new URLSearchParams(filtersToSearch(next))),
    [setParams],
  );
  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="heading-title mb-6 text-ink">Shop our products</h1>
      <Tabs id={tabsId} label="Product types" tabs={TABS} value={tab} onChange={choose} />
      {/* A panel stays built once shown: back on Single, the 200 cards are shown again, not built again. */}
      <div {...tabPanelProps(tabsId, 'single')} hidden={tab !== 'single'}>
        {/* Keyed by the address: Back or a link shows the filters it holds. */}
        <FilterForm key={search} filters={filters} onApply={apply} />
        {/* The area's name over its products, as the landing page's service links promise. */}
        {filters.area && <h2 className="heading-section mb-4 text-ink">{filters.area}</h2>}
        <SingleProducts active={tab === 'single'} url={productsUrlOf(search)} filtered={isFiltered(filters)} />
      </div>
      <div {...tabPanelProps(tabsId, 'packages')} hidden={tab !== 'packages'}>
        {packagesShown && <Packages />}
      </div>
    </section>
  );
}

const inputClass =
  'block min-h-11 w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-2 text-base text-ink placeholder:text-slate-500 focus:border-brand focus:outline-2 focus:outline-brand/30';
const labelClass = 'mb-1 block text-sm font-medium text-slate-800';

/**
 * The search box and filters. A plain GET form to /products as well: before the code has arrived
 * (or without it) Search still opens the filtered address, which the server renders.
 */
/** One end of the price range: whole naira, up to nine digits. */
function PriceField({
  id,
  name,
  label,
  placeholder,
  value,
  onChange,
}: {
  id: string;
  name: 'min' | 'max';
  label: string;
  placeholder: string;
  value: string;
  onChange: (e: { target: { value: string } }) => void;
}) {
  return (
    <div className="min-w-0">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input
        id={id}
        name={name}
        inputMode="numeric"
        autoComplete="off"
        maxLength={9}
        placeholder={placeholder}
        value={value}
        onChange={onChange}
        className={inputClass}
      />
    </div>
  );
}

function FilterForm({ filters, onApply }: { filters: ProductFilters; onApply: (f: ProductFilters) => void }) {
  const id = useId();
  const [draft, setDraft] = useState(filters);
  const set = (name: keyof ProductFilters) => (e: { target: { value: string } }) =>
    setDraft((d) => ({
      ...d,
      [name]: name === 'min' || name === 'max' ? e.target.value.replace(/\D/g, '') : e.target.value,
    }));
  return (
    <form
      role="search"
      aria-label="Find a service"
      action="/products"
      method="get"
      onSubmit={(e) => {
        e.preventDefault();
        onApply(draft);
      }}
      className="mb-6 grid min-w-0 gap-3 rounded-xl border border-slate-200 bg-white p-4 md:grid-cols-[minmax(0,2fr)_minmax(0,1.6fr)_minmax(0,1.4fr)_auto] md:items-end"
    >
      <div className="min-w-0">
        <label htmlFor={`${id}-q`} className={labelClass}>
          Search services
        </label>
        <input
          id={`${id}-q`}
          name="q"
          type="search"
          enterKeyHint="search"
          maxLength={100}
          placeholder="e.g. NDA, trademark"
          value={draft.q}
          onChange={set('q')}
          className={inputClass}
        />
      </div>
      <div className="min-w-0">
        <label htmlFor={`${id}-area`} className={labelClass}>
          Area of law
        </label>
        <select
          id={`${id}-area`}
          name="area"
          value={draft.area}
          onChange={(e) => {
            // Choosing an area applies it at once, with what is typed.
            const next = { ...draft, area: e.target.value };
            setDraft(next);
            onApply(next);
          }}
          className={inputClass}
        >
          <option value="">All areas</option>
          {EXPERTISE.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
          {draft.area && !(EXPERTISE as readonly string[]).includes(draft.area) && (
            <option value={draft.area}>{draft.area}</option>
          )}
        </select>
      </div>
      <fieldset className="m-0 grid min-w-0 grid-cols-2 gap-3 border-0 p-0">
        <legend className="col-span-2 mb-1 p-0 text-sm font-medium text-slate-800">Price range (₦)</legend>
        <PriceField id={`${id}-min`} name="min" label="Min" placeholder="0" value={draft.min} onChange={set('min')} />
        <PriceField id={`${id}-max`} name="max" label="Max" placeholder="Any" value={draft.max} onChange={set('max')} />
      </fieldset>
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="submit"
          className="inline-flex min-h-11 items-center justify-center gap-2 rounded-md bg-brand px-4 text-sm font-semibold text-white hover:bg-brand-dark focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
        >
          <Search aria-hidden className="size-4" /> Search
        </button>
        {isFiltered(filters) && (
          <Link
            to={paths.products()}
            className="inline-flex min-h-11 items-center px-2 text-sm font-semibold text-brand underline"
          >
            Clear filters
          </Link>
        )}
      </div>
    </form>
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

const SingleProducts = memo(function SingleProducts({
  active,
  url,
  filtered,
}: {
  active: boolean;
  /** The catalogue GET, with the address's filters. */
  url: string;
  filtered: boolean;
}) {
  const session = useSession();
  const isAdmin = session?.userType === 'admin';
  const products = useProducts(url);
  const remove = useDeleteProduct();
  const [editing, setEditing] = useState<Product | null>(null);
  const [confirm, setConfirm] = useState<Product | null>(null);
  const [notice, setNotice] = useState<{ text: string; tone: 'success' | 'error' } | null>(null);
  const [shown, firstPainted] = useGrowingCount(products.data?.length ?? 0, FIRST_CARDS);
  // The product last opened for editing: leaving the form puts focus back on its Edit button.
  const [lastEdited, setLastEdited] = useState<string | null>(null);
  const edit = useCallback((p: Product) => {
    setNotice(null);
    setEditing(p);
    setLastEdited(p._id);
  }, []);
  useFocusOnSwitch(editing !== null, { on: 'edit-product-title', off: `edit-product-${lastEdited}` });
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
        <h2 id="edit-product-title" tabIndex={-1} className="heading-section mb-4">
          Edit {editing.productName}
        </h2>
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
      {filtered && products.isSuccess && (
        <p role="status" className="mb-4 text-sm text-slate-700">
          {products.data.length === 1 ? '1 service found' : `${products.data.length} services found`}
        </p>
      )}
      {products.isPending ? (
        <Loading label="Loading products..." />
      ) : products.isError ? (
        <>
          <ErrorState message={getErrorMessage(products.error)} onRetry={() => void products.refetch()} />
          {filtered && <ClearFilters />}
        </>
      ) : products.data.length === 0 && filtered ? (
        <div className="rounded-lg border border-dashed border-slate-300 px-4 py-10 text-center text-slate-700">
          <p className="text-lg font-semibold text-ink">No services match your search.</p>
          <p className="mt-1">Try other words, another area of law or a wider price range.</p>
          <ClearFilters />
        </div>
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

function ClearFilters() {
  return (
    <p className="mt-3 text-center">
      <Link
        to={paths.products()}
        className="inline-flex min-h-11 items-center rounded-md border border-brand px-4 font-semibold text-brand hover:bg-brand/5"
      >
        Clear filters
      </Link>
    </p>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function Packages() {
  const session = useSession();
  const company = session?.userType === 'company';
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
            <h2 className="heading-section text-ink">{p.packageType}</h2>
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
            {/* A company goes to its plan page; a visitor signs up first and comes back to the tier (issue 19). */}
            <Link
              to={company ? paths.companyPlan(p.packageType.toLowerCase()) : paths.signupCompany()}
              onClick={() => {
                if (!company) rememberPlanTier(p.packageType.toLowerCase() as PlanTier);
              }}
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
