import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ImagePlus, X } from 'lucide-react';
import { digitsOnly } from '@legalmarket/contracts/common';
import type { Product } from '@legalmarket/contracts/catalogue';
import { UPLOAD_ACCEPT } from '@legalmarket/contracts/constants';
import { messages } from '@legalmarket/contracts/messages';
import { Button } from '@/components/button';
import { Field, FormError, TextArea } from '@/components/field';
import { getErrorMessage } from '@/lib/http';
import { useSaveProduct, type ProductFormValues } from './api/save-product';

export interface ProductFormProps {
  /** The product being edited; absent when creating. */
  product?: Product;
  onSaved: (product: Product, message: string) => void;
  onCancel?: () => void;
}

/**
 * The product form of spec screen 8 (edit: Update and Cancel) and of the admin create page (CREATE,
 * active only when image, name, price and description are all present). Price keeps digits only.
 */
export function ProductForm({ product, onSaved, onCancel }: ProductFormProps) {
  const editing = Boolean(product);
  const [values, setValues] = useState<ProductFormValues>({
    productName: product?.productName ?? '',
    productPrice: product ? String(Math.round(product.productPrice)) : '',
    productDescription: product?.productDescription ?? '',
    productImage: null,
  });
  const [errors, setErrors] = useState<Partial<Record<keyof ProductFormValues, string>>>({});
  const [progress, setProgress] = useState<number | null>(null);
  const save = useSaveProduct((f) => setProgress(f));
  const preview = usePreview(values.productImage);
  const fileInput = useRef<HTMLInputElement>(null);
  const imageId = useId();

  const complete =
    values.productName.trim() !== '' &&
    values.productPrice !== '' &&
    values.productDescription.trim() !== '' &&
    (editing || values.productImage !== null);

  function validate() {
    const e: typeof errors = {};
    if (!values.productName.trim()) e.productName = messages.enterProductName;
    if (!values.productPrice) e.productPrice = messages.enterProductPrice;
    else if (Number(values.productPrice) < 1) e.productPrice = messages.productPriceDigits;
    if (!values.productDescription.trim()) e.productDescription = messages.enterProductDescription;
    if (!editing && !values.productImage) e.productImage = messages.chooseProductImage;
    setErrors(e);
    return Object.keys(e).length === 0;
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!validate()) return;
    setProgress(0);
    try {
      const res = await save.mutateAsync({ id: product?._id, values });
      onSaved(res.data.product, res.message ?? (editing ? messages.productUpdated : messages.newProductCreated));
      if (!editing) {
        setValues({ productName: '', productPrice: '', productDescription: '', productImage: null });
        if (fileInput.current) fileInput.current.value = '';
      }
    } catch {
      // shown below from save.error
    } finally {
      setProgress(null);
    }
  }

  const shownImage = preview ?? product?.productImage ?? null;

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label={editing ? 'Edit product' : 'Create product'}>
      <div>
        <span id={`${imageId}-label`} className="mb-1 block text-sm font-medium text-slate-800">
          Product Image
        </span>
        <div className="flex flex-wrap items-center gap-3">
          {shownImage ? (
            <img
              src={shownImage}
              alt=""
              className="h-20 w-32 rounded-md border border-slate-200 bg-sand object-cover"
            />
          ) : (
            <div className="flex h-20 w-32 items-center justify-center rounded-md border border-dashed border-slate-300 text-slate-400">
              <ImagePlus aria-hidden className="size-6" />
            </div>
          )}
          <label
            htmlFor={`${imageId}-input`}
            className="inline-flex min-h-11 cursor-pointer items-center rounded-md border border-brand bg-white px-4 text-sm font-semibold text-brand hover:bg-brand/5 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent"
          >
            {values.productImage || editing ? 'Change image' : 'Choose image'}
            <input
              ref={fileInput}
              id={`${imageId}-input`}
              type="file"
              accept={UPLOAD_ACCEPT.image}
              className="sr-only"
              aria-labelledby={`${imageId}-label`}
              aria-describedby={errors.productImage ? `${imageId}-error` : `${imageId}-hint`}
              aria-invalid={errors.productImage ? true : undefined}
              onChange={(e) => {
                const f = e.target.files?.[0] ?? null;
                setValues((v) => ({ ...v, productImage: f }));
                setErrors((x) => ({ ...x, productImage: undefined }));
              }}
            />
          </label>
          {values.productImage && (
            <span className="flex items-center gap-1 text-sm text-slate-700">
              <span className="max-w-48 truncate">{values.productImage.name}</span>
              <button
                type="button"
                className="flex size-11 items-center justify-center rounded-md text-red-700 hover:bg-red-50"
                aria-label={`Remove ${values.productImage.name}`}
                onClick={() => {
                  setValues((v) => ({ ...v, productImage: null }));
                  if (fileInput.current) fileInput.current.value = '';
                }}
              >
                <X aria-hidden className="size-4" />
              </button>
            </span>
          )}
        </div>
        <p id={`${imageId}-hint`} className="mt-1 text-xs text-slate-500">
          PNG, JPEG or WebP, at most 5 MB.
        </p>
        {errors.productImage && (
          <p id={`${imageId}-error`} role="alert" className="mt-1 text-sm text-red-700">
            {errors.productImage}
          </p>
        )}
      </div>
      <Field
        label="Product Name"
        name="productName"
        value={values.productName}
        maxLength={120}
        onChange={(e) => setValues((v) => ({ ...v, productName: e.target.value }))}
        error={errors.productName}
      />
      <Field
        label="Price"
        name="productPrice"
        inputMode="numeric"
        autoComplete="off"
        value={values.productPrice}
        onChange={(e) => setValues((v) => ({ ...v, productPrice: digitsOnly(e.target.value, 9) }))}
        error={errors.productPrice}
        hint="Naira, digits only"
      />
      <TextArea
        label="Description"
        name="productDescription"
        value={values.productDescription}
        maxLength={4000}
        onChange={(e) => setValues((v) => ({ ...v, productDescription: e.target.value }))}
        error={errors.productDescription}
      />
      {progress !== null && (
        <progress
          className="h-2 w-full [&::-webkit-progress-bar]:bg-slate-200 [&::-webkit-progress-value]:bg-brand"
          max={100}
          value={Math.round(progress * 100)}
          aria-label="Saving the product"
        />
      )}
      <FormError message={save.error ? getErrorMessage(save.error) : null} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={save.isPending} disabled={!complete} className="min-w-32">
          {editing ? 'Update' : 'CREATE'}
        </Button>
        {onCancel && (
          <Button variant="secondary" onClick={onCancel} disabled={save.isPending}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}

/** An object URL for a picked picture, revoked when it changes. */
function usePreview(file: File | null) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const u = URL.createObjectURL(file);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [file]);
  return url;
}
