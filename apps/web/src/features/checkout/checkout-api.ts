/** The checkout calls other features use (pages import top-level files only). */
export { startCheckout } from './api/start-checkout';
export { verifyPayment, type VerifyResponse } from './api/verify-payment';
