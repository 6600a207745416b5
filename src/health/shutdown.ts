import type { Logger } from '../common/logging/logger';

/**
 * Runs `shutdown` on the first SIGTERM or SIGINT, then exits 0 (1 if it threw). Only the first signal is handled:
 * a second Ctrl-C falls through to Node's default and ends the process at once.
 */
export function onShutdownSignal(shutdown: (signal: NodeJS.Signals) => Promise<void>, logger: Logger): void {
  let started = false;
  const run = (signal: NodeJS.Signals): void => {
    if (started) return;
    started = true;
    shutdown(signal).then(
      () => {
        logger.info({ signal }, 'stopped');
        logger.flush();
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err, signal }, 'shutdown failed');
        logger.flush();
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', run);
  process.once('SIGINT', run);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
