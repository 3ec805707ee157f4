import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { setStepUpHandler } from '@/lib/http';

// Every page mounts the prompt, so its form code (react-hook-form, zod) loads only when first asked.
const StepUpDialog = lazy(() => import('./step-up-dialog'));

/**
 * The code prompt of actions on money (decision 2020): when one answers 428, this asks for a code,
 * proves it with POST /api/two-factor/verify, and the action is sent again by lib/http.ts.
 */
export function StepUpPrompt() {
  const settle = useRef<((ok: boolean) => void) | null>(null);
  /** A new number for each question, so the dialog opens empty every time. */
  const [question, setQuestion] = useState<number | null>(null);

  useEffect(() => {
    setStepUpHandler(
      () =>
        new Promise<boolean>((resolve) => {
          settle.current?.(false);
          settle.current = resolve;
          setQuestion((n) => (n ?? 0) + 1);
        }),
    );
    return () => setStepUpHandler(null);
  }, []);

  const finish = (ok: boolean) => {
    settle.current?.(ok);
    settle.current = null;
    setQuestion(null);
  };

  if (question === null) return null;
  return (
    <Suspense fallback={null}>
      <StepUpDialog key={question} onFinish={finish} />
    </Suspense>
  );
}
