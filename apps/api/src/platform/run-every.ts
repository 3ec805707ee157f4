import type { FastifyInstance } from 'fastify';

/**
 * Runs `task` every `ms` while the app is up, in this process: a run still going is not overlapped, and
 * closing the app waits for it. Tasks must be safe with several instances (they lock what they take).
 */
export function runEvery(app: FastifyInstance, ms: number, name: string, task: () => Promise<unknown>) {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = task()
      .catch((err) => app.log.error({ err }, `${name} failed`))
      .finally(() => (running = null));
  }, ms);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
