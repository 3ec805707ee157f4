import { z } from 'zod';
import { NUMBER_OR_DIGITS, dataResponse, nullsNotSent, numberOrDigits, showsText } from './common.js';
import { LIMITS, ORDER_STATUSES } from './constants.js';
import { messages } from './messages.js';
import { wholeKobo } from './money.js';

/**
 * Cart, checkout, company jobs and profile payloads (issue 4). Money crosses the wire in naira;
 * the server stores kobo and computes every price and total itself.
 */

/**
 * A link to a file: one of our own uploads (`/uploads/<key>`) or an http(s) address; nothing else. Empty
 * (or blank) is no file: the spec names `file` optional and a form without an upload sends it empty.
 */
export const uploadedFileLink = z
  .string({ error: 'file must be text' })
  .trim()
  .max(500, 'file must be at most 500 characters')
  .regex(/^(\/uploads\/[A-Za-z0-9._-]+|https?:\/\/\S+|)$/, 'file must be a URL answered by /api/uploads');

export const optionalDetail = z
  .string({ error: 'Details must be text' })
  .trim()
  .max(5000, 'Details must be at most 5000 characters')
  .optional();

export const addToCartInput = z.object({
  productId: z.uuid('productId must be a valid product id'),
  quantity: numberOrDigits(
    z
      .number({ error: 'Quantity must be a number from 1 to 10' })
      .int('Quantity must be a whole number from 1 to 10')
      .min(LIMITS.quantityMin, 'Quantity must be a number from 1 to 10')
      .max(LIMITS.quantityMax, 'Quantity must be a number from 1 to 10'),
  )
    // The schema's default is lost in the OpenAPI text behind the preprocessing, so it is said here.
    .meta({ description: `${NUMBER_OR_DIGITS} 1 when left out.` })
    .default(1),
  detail: optionalDetail,
  file: uploadedFileLink.optional(),
  fileName: z
    .string({ error: 'File name must be text' })
    .trim()
    .max(255, 'File name must be at most 255 characters')
    .optional(),
});
export type AddToCartInput = z.input<typeof addToCartInput>;
/** POST /api/cart's body: the optional `detail`, `file` and `fileName` sent null are not sent (decision 2210). */
export const addToCartBody = nullsNotSent(['detail', 'file', 'fileName'], addToCartInput);

/** A cart line's brief grows when the same product is added again; past this it is refused (decision 1800). */
export const CART_BRIEF_MAX = 10_000;

/**
 * POST /api/cart/reservations: a visitor's reservations, moved into the company's cart after a
 * log-in. Each carries the id the browser gave it, so a retry or a second tab moves it once.
 */
export const moveReservationsInput = z.object({
  items: z
    .array(addToCartInput.extend({ reservationId: z.uuid('reservationId must be a valid id') }), {
      error: 'items must be a list of reserved items',
    })
    .min(1, 'items must hold at least one reserved item')
    .max(50, 'items must hold at most 50 reserved items'),
});
export type MoveReservationsInput = z.input<typeof moveReservationsInput>;

export const cartLine = z.object({
  productId: z.string(),
  quantity: z.number(),
  detail: z.string().nullable(),
  file: z.string().nullable(),
  fileName: z.string().nullable(),
  /** Naira: the catalogue price less the company's plan discount (computed by the server). */
  price: z.number(),
  /** With a plan discount only: the catalogue price (naira) and the percent taken off. */
  listPrice: z.number().optional(),
  percentOff: z.number().optional(),
  productName: z.string(),
  productImage: z.string(),
});
export type CartLine = z.infer<typeof cartLine>;

/** The company's cart: its lines and the bill (naira), computed by the server from the catalogue. */
const cartView = z.object({
  products: z.array(cartLine),
  bill: z.number(),
  /** With an active Silver or Gold plan: its percent off and what it saves on this cart (naira). */
  discount: z.object({ percentOff: z.number(), saved: z.number() }).optional(),
});
export type CartView = z.infer<typeof cartView>;

/** GET /api/cart: the list's first element holds the products and the bill (naira). */
export const cartResponse = z.array(cartView);
export type CartResponse = z.infer<typeof cartResponse>;

/**
 * What POST /api/cart and POST /api/cart/reservations answer: the whole cart, and `notes` saying
 * what happened to a line that was already there (quantity added, brief added), so nothing changes silently.
 */
export const cartChangeResponse = z.object({
  status: z.literal('success'),
  message: z.string(),
  data: cartResponse,
  notes: z.array(z.string()),
});
export type CartChangeResponse = z.infer<typeof cartChangeResponse>;

/** How a company may pay (Flutterwave's `payment_options` names; in Nigeria most business payments are transfers). */
export const PAYMENT_METHODS = ['card', 'mobilemoney', 'ussd', 'banktransfer'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_OPTIONS = PAYMENT_METHODS.join(',');
export const DEFAULT_PRODUCT_TITLE = 'Default Product Name';

/**
 * What the payment dialog is opened with besides the payment itself: the methods offered, who pays and
 * the provider's public settings. A cart's checkout and a plan's first payment open the same dialog.
 */
export const paymentDialogFields = {
  paymentOptions: z.string(),
  customer: z.object({ email: z.string(), phone: z.string(), name: z.string() }),
  provider: z.object({
    name: z.enum(['sandbox', 'flutterwave']),
    publicKey: z.string().optional(),
    subaccountId: z.string().optional(),
    scriptUrl: z.string().optional(),
    testMode: z.boolean(),
  }),
};

/** What the payment dialog needs (POST /api/checkout). */
export const checkoutResponse = z.object({
  status: z.literal('success'),
  message: z.string(),
  data: z.object({
    orderId: z.string(),
    reference: z.string(),
    /** Naira. */
    amount: z.number(),
    currency: z.literal('NGN'),
    title: z.string(),
    ...paymentDialogFields,
  }),
});
export type CheckoutResponse = z.infer<typeof checkoutResponse>;
export type CheckoutData = CheckoutResponse['data'];

export const verifyPaymentInput = z.object({
  reference: z.string().trim().min(1, 'reference is required').max(100, 'reference is too long'),
  /** The provider's transaction id from the dialog callback, when it gave one. */
  transactionId: z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .pipe(
      z
        .string()
        .max(64, 'transactionId is too long')
        .regex(/^[A-Za-z0-9_-]*$/, 'transactionId is invalid'),
    )
    .optional(),
});

const orderView = z.object({
  _id: z.string(),
  reference: z.string(),
  status: z.enum(ORDER_STATUSES),
  amount: z.number(),
  currency: z.string(),
  title: z.string(),
  provider: z.string(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
});
export type OrderView = z.infer<typeof orderView>;

/** The sandbox dialog's charge request (mirrors what Flutterwave's inline form collects). */
export const sandboxChargeInput = z.object({
  reference: z.string().trim().min(1).max(100),
  // Bounded: an unbounded number reached the database as kobo and failed there with a 500 (issue 8).
  // Whole kobo: recorded rounded, ₦25,000.004 paid a ₦25,000 order and ₦0.001 was a 0-kobo success.
  amount: z
    .number()
    .positive('amount must be positive')
    .max(1_000_000_000, 'amount is too large')
    .refine(...wholeKobo('amount')),
  currency: z.string().trim().min(3).max(3),
  paymentType: z.enum(PAYMENT_METHODS),
  cardNumber: z.string().max(30).optional(),
  pin: z.string().max(8).optional(),
  otp: z.string().max(8).optional(),
  phone: z.string().max(20).optional(),
});
export type SandboxChargeInput = z.infer<typeof sandboxChargeInput>;

/** Flutterwave's published test cards, shown on the sandbox dialog. */
export const SANDBOX_CARDS = {
  success: { number: '5531 8866 5214 2950', cvv: '564', expiry: '09/32', pin: '3310', otp: '12345' },
  insufficientFunds: { number: '5258 5859 2266 6506', cvv: '883', expiry: '09/31', pin: '3310', otp: '12345' },
  incorrectPin: { number: '5399 8346 9789 4723', cvv: '883', expiry: '09/31', pin: '3310', otp: '12345' },
} as const;
export const SANDBOX_OTP = '12345';

export const companyJobDetailsInput = z.object({
  detail: z
    .string({ error: messages.kindlyAddDetails })
    .trim()
    .min(1, messages.kindlyAddDetails)
    .max(5000, 'Details must be at most 5000 characters')
    .refine(showsText, messages.kindlyAddDetails),
  file: uploadedFileLink.optional(),
  fileName: z.string().trim().max(255, 'File name must be at most 255 characters').optional(),
});
/** PUT /job-api/company/editjobdetails's body: `file` and `fileName` sent null are not sent (decision 2210). */
export const companyJobDetailsBody = nullsNotSent(['file', 'fileName'], companyJobDetailsInput);

/** POST /api/checkout/sandbox/charge: a Flutterwave-shaped transaction (amount in naira). */
export const sandboxChargeResponse = z.object({
  status: z.literal('success'),
  data: z.object({
    status: z.enum(['successful', 'failed']),
    transaction_id: z.string(),
    tx_ref: z.string(),
    amount: z.number(),
    currency: z.string(),
    processor_response: z.string(),
  }),
});
export type SandboxChargeResponse = z.infer<typeof sandboxChargeResponse>;

/** POST /api/checkout/sandbox/virtual-account: the temporary account a bank transfer goes to. */
export const sandboxVirtualAccountInput = z.object({
  reference: z.string().trim().min(1, 'reference is required').max(100, 'reference is too long'),
});
export type SandboxVirtualAccountInput = z.infer<typeof sandboxVirtualAccountInput>;

/** Shaped like Flutterwave's bank-transfer charge (`meta.authorization`): where, how much and until when. */
export const sandboxVirtualAccountResponse = z.object({
  status: z.literal('success'),
  data: z.object({
    accountNumber: z.string(),
    bankName: z.string(),
    accountName: z.string(),
    /** Naira: exactly the order's amount. */
    amount: z.number(),
    currency: z.literal('NGN'),
    /** The order's tx_ref, to put in the transfer's narration. */
    reference: z.string(),
    expiresAt: z.string(),
  }),
});
export type SandboxVirtualAccount = z.infer<typeof sandboxVirtualAccountResponse>['data'];

/** POST /api/checkout/verify: 200 when the order is paid, 202 while the provider has not settled. */
export const verifyPaymentResponse = dataResponse('order', orderView);
export const verifyPaymentPendingResponse = verifyPaymentResponse.extend({ status: z.literal('pending') });
export type VerifyPaymentResponse =
  z.infer<typeof verifyPaymentResponse> | z.infer<typeof verifyPaymentPendingResponse>;

/** GET /api/orders: the company's orders, newest first. */
export const ordersResponse = z.object({ status: z.literal('success'), data: z.array(orderView) });
