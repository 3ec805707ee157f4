import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ImagePlus, X } from 'lucide-react';
import { digitsOnly } from '@legalmarket/contracts/common';
import { productFormSchema, WHAT_YOU_GET_MAX, type Product } from '@legalmarket/contracts/catalogue';
import { EXPERTISE, UPLOAD_ACCEPT } from '@legalmarket/contracts/constants';
import { messages } from '@legalmarket/contracts/messages';
import { Button } from '@/components/button';
import { Field, FormError, TextArea } from '@/components/field';
import { fileProblem } from '@/lib/file-problem';
import { currentUploadLimits } from '@/lib/public-config';
import { getErrorMessage } from '@/lib/http';
import { useSaveProduct, type ProductFormValues } from './api/save-product';

interface ProductFormProps {
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
  const {
    register,
    handleSubmit,
    watch,
    setValue,
    reset,
    clearErrors,
    setError,
    formState: { errors },
  } = useForm<ProductFormValues>({
    resolver: zodResolver(productFormSchema(editing), undefined, { raw: true }),
    defaultValues: {
      productName: product?.productName ?? '',
      productPrice: product ? String(Math.round(product.productPrice)) : '',
      productDescription: product?.productDescription ?? '',
      productImage: null,
      area: product?.area ?? '',
      whatYouGet: product?.whatYouGet ?? '',
      deliveryDays: product?.deliveryDays ? String(product.deliveryDays) : '',
      included: linesOf(product?.included),
      youProvide: linesOf(product?.youProvide),
      notIncluded: linesOf(product?.notIncluded),
    },
  });
  const values = watch();
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

  const submit = handleSubmit(async (valid) => {
    setProgress(0);
    try {
      const res = await save.mutateAsync({ id: product?._id, values: valid });
      onSaved(res.data.product, res.message ?? (editing ? messages.productUpdated : messages.newProductCreated));
      if (!editing) {
        reset({
          productName: '',
          productPrice: '',
          productDescription: '',
          productImage: null,
          area: '',
          whatYouGet: '',
          deliveryDays: '',
          included: '',
          youProvide: '',
          notIncluded: '',
        });
        if (fileInput.current) fileInput.current.value = '';
      }
    } catch {
      // shown below from save.error
    } finally {
      setProgress(null);
    }
  });
  const price = register('productPrice');
  const days = register('deliveryDays');

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
                // A picture the server would refuse is not taken (decision 2291).
                const problem = f && fileProblem(f, 'image', currentUploadLimits());
                if (problem) {
                  e.target.value = '';
                  setError('productImage', { message: `${f.name}: ${problem}` });
                  return;
                }
                setValue('productImage', f);
                clearErrors('productImage');
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
                  setValue('productImage', null);
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
            {errors.productImage.message}
          </p>
        )}
      </div>
      <Field label="Product Name" maxLength={120} {...register('productName')} error={errors.productName?.message} />
      <Field
        label="Price"
        inputMode="numeric"
        autoComplete="off"
        {...price}
        onChange={(e) => {
          e.target.value = digitsOnly(e.target.value, 9);
          return price.onChange(e);
        }}
        error={errors.productPrice?.message}
        hint="Naira, digits only"
      />
      <TextArea
        label="Description"
        maxLength={4000}
        {...register('productDescription')}
        error={errors.productDescription?.message}
      />
      <div>
        <label htmlFor={`${imageId}-area`} className="mb-1 block text-sm font-medium text-slate-800">
          Area of law
        </label>
        <select
          id={`${imageId}-area`}
          className="block min-h-11 w-full min-w-0 rounded-md border border-slate-300 bg-white px-3"
          aria-invalid={errors.area ? true : undefined}
          {...register('area')}
        >
          <option value="">Not set</option>
          {EXPERTISE.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
        {errors.area && (
          <p role="alert" className="mt-1 text-sm text-red-700">
            {errors.area.message}
          </p>
        )}
      </div>
      <Field
        label="What you get (one line)"
        maxLength={WHAT_YOU_GET_MAX}
        hint="Shown on the product's card"
        {...register('whatYouGet')}
        error={errors.whatYouGet?.message}
      />
      <Field
        label="Delivery time (working days)"
        inputMode="numeric"
        autoComplete="off"
        {...days}
        onChange={(e) => {
          e.target.value = digitsOnly(e.target.value, 2);
          return days.onChange(e);
        }}
        error={errors.deliveryDays?.message}
      />
      <TextArea
        label="What's included"
        hint="One item per line"
        maxLength={2000}
        {...register('included')}
        error={errors.included?.message}
      />
      <TextArea
        label="What you provide"
        hint="One item per line"
        maxLength={2000}
        {...register('youProvide')}
        error={errors.youProvide?.message}
      />
      <TextArea
        label="Not included"
        hint="One item per line"
        maxLength={2000}
        {...register('notIncluded')}
        error={errors.notIncluded?.message}
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

/** A list as the form's text: one item per line (a product saved before the lists has none). */
const linesOf = (items: string[] | undefined) => (items ?? []).join('\n');

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
