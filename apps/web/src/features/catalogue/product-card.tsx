import { memo } from 'react';
import { Link } from 'react-router';
import { Pencil, Trash2 } from 'lucide-react';
import type { Product } from '@legalmarket/contracts/catalogue';
import { paths } from '@/lib/paths';
import { Naira } from '@/components/feedback';
import { DeliveryTime, ProductRating } from './product-facts';

// Its own file, without the catalogue's queries: the landing page shows featured products with it and
// does not ship the query library on a first visit.
/**
 * One product card. Memoised: a tab switch or a notice does not rebuild 200 of them; off screen the
 * browser skips their layout and paint (content-visibility), with their last size kept.
 */
export const ProductCard = memo(function ProductCard({
  product: p,
  isAdmin,
  eager,
  onPainted,
  onEdit,
  onDelete,
}: {
  product: Product;
  isAdmin: boolean;
  eager: boolean;
  /** Given to the first card: its picture is the largest element, so it is fetched first. */
  onPainted?: () => void;
  onEdit: (p: Product) => void;
  onDelete: (p: Product) => void;
}) {
  return (
    <li className="flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm [contain-intrinsic-size:auto_20rem] [content-visibility:auto]">
      <Link
        to={paths.preCart(p._id)}
        className="group flex flex-1 flex-col focus-visible:outline-2 focus-visible:outline-accent"
      >
        <img
          src={p.productImage}
          alt=""
          width={640}
          height={400}
          loading={eager ? 'eager' : 'lazy'}
          fetchPriority={onPainted ? 'high' : undefined}
          onLoad={onPainted}
          onError={onPainted}
          className="aspect-[16/10] w-full bg-sand object-cover"
        />
        <span className="flex flex-1 flex-col gap-1 p-4">
          <span className="text-lg font-semibold break-words text-ink group-hover:text-brand">{p.productName}</span>
          {p.whatYouGet && <span className="text-sm break-words text-slate-700">{p.whatYouGet}</span>}
          <span className="mt-auto flex flex-wrap items-center gap-x-4 gap-y-1 pt-2">
            <span className="font-semibold text-ink">
              <Naira amount={p.productPrice} />
            </span>
            <ProductRating average={p.ratingAverage} count={p.ratingCount} />
          </span>
          {p.deliveryDays !== null && <DeliveryTime days={p.deliveryDays} />}
        </span>
      </Link>
      {isAdmin && (
        <div className="flex gap-2 border-t border-slate-100 p-3">
          <button
            id={`edit-product-${p._id}`}
            type="button"
            onClick={() => onEdit(p)}
            className="inline-flex min-h-11 items-center gap-1 rounded-md px-3 text-sm font-semibold text-brand hover:bg-brand/5"
            aria-label={`Edit ${p.productName}`}
          >
            <Pencil aria-hidden className="size-4" /> Edit
          </button>
          <button
            type="button"
            onClick={() => onDelete(p)}
            className="inline-flex min-h-11 items-center gap-1 rounded-md px-3 text-sm font-semibold text-red-700 hover:bg-red-50"
            aria-label={`Delete ${p.productName}`}
          >
            <Trash2 aria-hidden className="size-4" /> Delete
          </button>
        </div>
      )}
    </li>
  );
});
