import { EmailChangeLink } from './components/email-change-link';

/** /confirm-email-change?token=: the link sent to a new sign-in address. */
export default function ConfirmEmailChangePage() {
  return <EmailChangeLink step="confirm" />;
}
