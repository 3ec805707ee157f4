/**
 * The components that bring form code: react-hook-form (the step-up dialog, the document field), zod and
 * the contracts' schemas (the step-up dialog, the phone field), the QR library (the QR code). The `ui`
 * chunk does not take them. A chunk is taken whole and imports what its modules import, so any of these in
 * `ui` made every page that loads it (/products, /cart, the job page, ...) preload react-hook-form, zod,
 * the schemas and, through the QR code, the two-factor page. They go with the pages that use them; the
 * step-up dialog, which the root layout loads on the first 428, into its own chunk.
 * src/app/form-code.test.ts fails when a component left in `ui` imports any of these.
 */
export const FORM_COMPONENTS = ['step-up-dialog', 'form-document-field', 'phone-field', 'qr-code'];

const shared = /src[\\/](components[\\/]|lib[\\/]use-hydrated\.ts$)|lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/;
const form = new RegExp(`src[\\\\/]components[\\\\/](${FORM_COMPONENTS.join('|')})\\.tsx$`);

/**
 * The `ui` chunk of vite.config.ts: the shared components and icons of the pages but the landing page,
 * with lib/use-hydrated, which the product page and the cart share (alone, a 0.2 KB file).
 */
export const inUiChunk = (id: string) => shared.test(id) && !form.test(id);
