import { useEffect, useRef, useState } from 'react';
import { setStepUpHandler } from '@/lib/http';
import { loadOnce } from '@/lib/load-once';

type Dialog = typeof import('./step-up-dialog').default;
/**
 * Every page mounts the prompt, so its form code (react-hook-form, zod) loads only when first asked (the
 * `ui` chunk does not take the dialog: apps/web/ui-chunk.ts), before the dialog opens: a load that fails
 * (a phone gone offline) leaves the 428 to the caller, as a cancel does, and is tried again on the next
 * 428 (decision 2266).
 */
const loadDialog = loadOnce<Dialog>(() => import('./step-up-dialog').then((m) => m.default));

/**
 * The code prompt of actions on money (decision 2020): when one answers 428, this asks for a code,
 * proves it with POST /api/two-factor/verify, and the action is sent again by lib/http.ts.
 */
export function StepUpPrompt() {
  const settle = useRef<((ok: boolean) => void) | null>(null);
  /** A new number for each question, so the dialog opens empty every time. */
  const [question, setQuestion] = useState<number | null>(null);
  const [StepUpDialog, setDialog] = useState<Dialog | null>(null);

  useEffect(() => {
    setStepUpHandler(() =>
      loadDialog().then(
        (loaded) =>
          new Promise<boolean>((resolve) => {
            setDialog(() => loaded);
            settle.current?.(false);
            settle.current = resolve;
            setQuestion((n) => (n ?? 0) + 1);
          }),
        () => false,
      ),
    );
    return () => setStepUpHandler(null);
  }, []);

  const finish = (ok: boolean) => {
    settle.current?.(ok);
    settle.current = null;
    setQuestion(null);
  };

  if (question === null || !StepUpDialog) return null;
  return <StepUpDialog key={question} onFinish={finish} />;
}
