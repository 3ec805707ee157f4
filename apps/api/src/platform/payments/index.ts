import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../clock.js';
import { flutterwaveProvider } from './flutterwave.js';
import { sandboxProvider } from './sandbox.js';
import type { PaymentProvider } from './types.js';

export * from './types.js';
export { merchantFee } from './fees.js';
export { finishSandboxTransfer, setSandboxRenewalFailure } from './sandbox.js';

/** The provider chosen by PAYMENT_PROVIDER (config.ts checks the Flutterwave keys are present). */
export function createPaymentProvider(config: Config, db: Db, clock?: Clock): PaymentProvider {
  if (config.PAYMENT_PROVIDER === 'flutterwave')
    return flutterwaveProvider({
      publicKey: config.FLW_PUBLIC_KEY!,
      secretKey: config.FLW_SECRET_KEY!,
      secretHash: config.FLW_SECRET_HASH!,
      subaccountId: config.FLW_SUBACCOUNT_ID,
      apiUrl: config.FLW_API_URL,
    });
  return sandboxProvider(db, clock);
}
