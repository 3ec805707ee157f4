import { z } from 'zod';
import { AREA_ALIASES, EXPERTISE, UPLOAD_KINDS } from './constants.js';
import { numberOrDigits } from './common.js';
import { messages } from './messages.js';

// Kept in constants.ts (no zod) so the web pages that only need them don't load zod; same exports here.

export const uploadResponse = z.object({
  status: z.literal('success'),
  message: z.string(),
  data: z.object({
    fileName: z.string(),
    url: z.string(),
    kind: z.enum(UPLOAD_KINDS),
    contentType: z.string(),
    size: z.number(),
  }),
});
export type UploadResponse = z.infer<typeof uploadResponse>;

export const fileLinkResponse = z.object({
  status: z.literal('success'),
  data: z.object({ url: z.string(), expiresAt: z.string() }),
});

// ---------------------------------------------------------------- products

const productView = z.object({
  _id: z.string(),
  id: z.string(),
  productName: z.string(),
  /** Naira. */
  productPrice: z.number(),
  productDescription: z.string(),
  productImage: z.string(),
  category: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  // Additions to the spec's product (issue 20, decision 2010); null or empty when not set.
  /** The area of law, one of EXPERTISE. */
  area: z.enum(EXPERTISE).nullable(),
  /** One line: what the buyer gets. */
  whatYouGet: z.string().nullable(),
  /** Working days from purchase to delivery. */
  deliveryDays: z.number().int().nullable(),
  /** The product page's lists, one item each. */
  included: z.array(z.string()),
  youProvide: z.array(z.string()),
  notIncluded: z.array(z.string()),
  /** The average of its reviews' stars (one decimal), null without reviews. */
  ratingAverage: z.number().nullable(),
  ratingCount: z.number().int(),
});
export type Product = z.infer<typeof productView>;

/** GET /product-api/products: the spec's client reads `products` at the top of the body. */
export const productsResponse = z.object({
  status: z.literal('success'),
  results: z.number(),
  products: z.array(productView),
});
export type ProductsResponse = z.infer<typeof productsResponse>;

/** Longest search text. */
export const PRODUCT_SEARCH_MAX = 100;
/** An empty query parameter (a form sends `q=`) means the filter is off. */
const blankToNone = (v: unknown) => (v === '' ? undefined : v);
const nairaBound = (name: string) =>
  z.preprocess(
    blankToNone,
    z
      .string()
      .regex(/^\d{1,9}$/, `${name} must be a whole number of naira`)
      .transform(Number)
      .optional(),
  );

/**
 * GET /product-api/products?q=&area=&min=&max= (issue 20): all optional, every filter applied together.
 * `q` matches every word in the name, what you get, description or area; `area` is one of EXPERTISE
 * (older names in AREA_ALIASES are accepted); `min` and `max` bound the price in naira, both included.
 */
export const productsQuery = z
  .object({
    q: z.preprocess(
      blankToNone,
      z.string().trim().max(PRODUCT_SEARCH_MAX, `q must be at most ${PRODUCT_SEARCH_MAX} characters`).optional(),
    ),
    area: z.preprocess(
      (v) => (typeof v === 'string' && v in AREA_ALIASES ? AREA_ALIASES[v] : blankToNone(v)),
      z.enum(EXPERTISE, 'area must be one of the areas of law').optional(),
    ),
    min: nairaBound('min'),
    max: nairaBound('max'),
  })
  .refine((v) => v.min === undefined || v.max === undefined || v.min <= v.max, {
    path: ['max'],
    message: 'max must be at least min',
  });
export type ProductsQuery = z.infer<typeof productsQuery>;

/** GET /product-api/product/{id}: the product itself (`_id`, `productPrice`, ... at the top). */
export const productResponse = productView;
export type ProductResponse = z.infer<typeof productResponse>;

/**
 * POST /api/create and PUT /api/update/{id}: the spec's table answers "product" (decision 2150), read as
 * the profile update's `lawyer` is: `product` at the top. `data.product`, which our web reads, stays.
 */
export const productSavedResponse = z.object({
  status: z.literal('success'),
  message: z.string().optional(),
  product: productView,
  data: z.object({ product: productView }),
});
export type ProductSavedResponse = z.infer<typeof productSavedResponse>;

/** Naira, whole numbers, as the price input keeps digits only. */
const PRODUCT_PRICE_MAX = 100_000_000;

/** The text fields of a product form (the image travels as a file in the same multipart body). */
export const productFields = z.object({
  productName: z
    .string({ error: messages.enterProductName })
    .trim()
    .min(1, messages.enterProductName)
    .max(120, 'Product name must be at most 120 characters'),
  productPrice: z
    .string({ error: messages.enterProductPrice })
    .trim()
    .min(1, messages.enterProductPrice)
    .regex(/^\d+$/, messages.productPriceDigits)
    .transform(Number)
    .pipe(
      // The bound first: past 2^53 zod's own int check answers first, in words that name no field.
      // Digits only reach here, so a non-number is one too long to read (Infinity).
      z
        .number({ error: `Product price must be at most ${PRODUCT_PRICE_MAX}` })
        .max(PRODUCT_PRICE_MAX, `Product price must be at most ${PRODUCT_PRICE_MAX}`)
        .int(messages.productPriceDigits)
        .min(1, messages.productPriceDigits),
    ),
  productDescription: z
    .string({ error: messages.enterProductDescription })
    .trim()
    .min(1, messages.enterProductDescription)
    .max(4000, 'Product description must be at most 4000 characters'),
});

/** Longest one-line "what you get". */
export const WHAT_YOU_GET_MAX = 140;
/** Most working days a product may promise. */
export const DELIVERY_DAYS_MAX = 90;
const listField = (label: string) =>
  z.string().max(2000, `${label} must be at most 2000 characters`).optional().describe(`${label}: one item per line`);

/**
 * The product fields added by issue 20, all optional so the spec's four-field form still works. On an
 * update a field left out keeps its value; an empty one clears it.
 */
export const productExtraFields = z.object({
  area: z.union([z.literal(''), z.enum(EXPERTISE)], { error: 'Please choose an area of law from the list' }).optional(),
  whatYouGet: z
    .string()
    .trim()
    .max(WHAT_YOU_GET_MAX, `What you get must be at most ${WHAT_YOU_GET_MAX} characters`)
    .refine((v) => !/[\r\n]/.test(v), 'What you get must be one line')
    .optional(),
  deliveryDays: z
    .string()
    .trim()
    .regex(/^\d{0,2}$/, 'Delivery time must be a whole number of working days')
    .refine(
      (v) => v === '' || (Number(v) >= 1 && Number(v) <= DELIVERY_DAYS_MAX),
      `Delivery time must be between 1 and ${DELIVERY_DAYS_MAX} working days`,
    )
    .optional(),
  included: listField("What's included"),
  youProvide: listField('What you provide'),
  notIncluded: listField('Not included'),
});

/** The whole text part of the product form. */
export const productFormFields = productFields.extend(productExtraFields.shape);

/** The product form: its text fields and a picture, which a new product must have. */
export const productFormSchema = (editing: boolean) =>
  productFormFields
    .extend({ productImage: z.custom<File>((v) => v instanceof Blob).nullable() })
    .refine((v) => editing || v.productImage !== null, {
      path: ['productImage'],
      message: messages.chooseProductImage,
    });

// ---------------------------------------------------------------- reviews

const STARS_MAX = 5;

export const reviewInput = z.object({
  reviewTitle: z
    .string({ error: messages.enterReviewTitle })
    .trim()
    .min(1, messages.enterReviewTitle)
    .max(120, 'Review title must be at most 120 characters'),
  review: z
    .string({ error: messages.enterReviewText })
    .trim()
    .min(1, messages.enterReviewText)
    .max(2000, 'review must be at most 2000 characters'),
  status: numberOrDigits(
    z
      .number({ error: messages.chooseStars })
      .int(messages.chooseStars)
      .min(1, messages.chooseStars)
      .max(STARS_MAX, messages.chooseStars),
  ),
  productId: z.uuid('productId must be a valid id'),
});
export type ReviewInput = z.input<typeof reviewInput>;

const reviewView = z.object({
  _id: z.string(),
  date: z.string(),
  reviewTitle: z.string(),
  review: z.string(),
  status: z.number(),
  companyId: z.object({ _id: z.string(), companyName: z.string() }),
  productId: z.string(),
  /** Name of the product, for the admin ratings list. */
  productName: z.string().nullable(),
  /** The company bought the product (a job of it that was not cancelled): "Verified purchase". */
  verifiedPurchase: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Review = z.infer<typeof reviewView>;

/** GET /ratings-api/rating: an array of reviews (the average is `averageStars` of their `status`). */
export const reviewsResponse = z.array(reviewView);
export type ReviewsResponse = z.infer<typeof reviewsResponse>;

/**
 * POST /api/rating, PATCH /api/rating/{id}: the review itself, with the success `message` beside its
 * fields. No `status: 'success'`: `status` is the review's star count.
 */
export const reviewResponse = reviewView.extend({ message: z.string() });
export type ReviewResponse = z.infer<typeof reviewResponse>;
