import { DELAYS_MS } from '@legalmarket/contracts/constants';
import { messages } from '@legalmarket/contracts/messages';
import { Modal } from '@/components/modal';
import { paths } from '@/lib/paths';
import { useNavigate } from 'react-router';
import { useRedirectAfter } from './use-redirect-after';

/** After sign-up: asks the user to click the e-mailed link, then goes to /login after 5 s. */
export function SignupDoneModal({ open, email }: { open: boolean; email: string }) {
  const navigate = useNavigate();
  useRedirectAfter(open, paths.login(), DELAYS_MS.afterSignup);
  return (
    <Modal open={open} tone="success" title={messages.accountCreated} onClose={() => navigate(paths.login())}>
      <p>
        We have sent a confirmation link to <strong>{email}</strong>. Please click the link in that email to confirm
        your address, then log in.
      </p>
      <p className="mt-2 text-slate-500">Taking you to the login page in a few seconds...</p>
    </Modal>
  );
}
