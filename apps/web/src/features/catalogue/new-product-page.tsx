import { useState } from 'react';
import { Link } from 'react-router';
import { Check } from 'lucide-react';
import { paths } from '@/lib/paths';
import { ProductForm } from './product-form';

/** /admin/new-product: image, name, price (digits only), description; CREATE only when all four are there. */
export default function NewProductPage() {
  const [created, setCreated] = useState<{ id: string; name: string; message: string } | null>(null);
  return (
    <section className="mx-auto max-w-xl px-4 py-10">
      <h1 className="heading-title mb-6 text-ink">Create a product</h1>
      <div aria-live="polite">
        {created && (
          <p
            role="status"
            className="mb-4 flex flex-wrap items-center gap-2 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800"
          >
            <Check aria-hidden className="size-4" />
            {created.message}:{' '}
            <Link className="font-semibold underline" to={paths.preCart(created.id)}>
              {created.name}
            </Link>
            <Link className="ml-auto font-semibold underline" to={paths.products()}>
              See all products
            </Link>
          </p>
        )}
      </div>
      <ProductForm onSaved={(p, message) => setCreated({ id: p._id, name: p.productName, message })} />
    </section>
  );
}
