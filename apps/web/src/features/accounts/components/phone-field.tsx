/** The sign-up forms' phone input is the shared one (local or international form, never cut). */
export { PhoneField } from '@/components/phone-field';
