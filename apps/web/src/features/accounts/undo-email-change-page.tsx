import { EmailChangeLink } from './components/email-change-link';

/** /undo-email-change?token=: the link sent to the old address when the sign-in address changes. */
export default function UndoEmailChangePage() {
  return <EmailChangeLink step="undo" />;
}
