import { Button } from './button';
import { Modal } from './modal';

/** What an action answered: its success message or the reason it was refused. */
export interface ActionResult {
  ok: boolean;
  text: string;
}

/** The answer of an action in a dialog: "Success", or the failure title, and one Close button. */
export function ResultModal({
  result,
  onClose,
  failureTitle = 'Something went wrong',
}: {
  result: ActionResult | null;
  onClose: () => void;
  failureTitle?: string;
}) {
  return (
    <Modal
      open={result !== null}
      title={result?.ok ? 'Success' : failureTitle}
      tone={result?.ok ? 'success' : 'error'}
      onClose={onClose}
      footer={<Button onClick={onClose}>Close</Button>}
    >
      <p>{result?.text}</p>
    </Modal>
  );
}
