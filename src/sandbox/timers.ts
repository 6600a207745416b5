/** Timers owned by one sandbox instance, so stop() can cancel every pending expiry, completion and retry. */
export class Timers {
  private readonly handles = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly onError: (err: unknown) => void) {}

  /** Runs `fn` after `ms` (clamped to what setTimeout accepts); returns a cancel function. */
  after(ms: number, fn: () => unknown): () => void {
    if (this.stopped) return () => undefined;
    const delay = Math.min(Math.max(0, Math.round(ms)), 2 ** 31 - 1);
    const handle = setTimeout(() => {
      this.handles.delete(handle);
      Promise.resolve()
        .then(fn)
        .catch((err: unknown) => this.onError(err));
    }, delay);
    handle.unref();
    this.handles.add(handle);
    return () => {
      clearTimeout(handle);
      this.handles.delete(handle);
    };
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  stop(): void {
    this.stopped = true;
    for (const handle of this.handles) clearTimeout(handle);
    this.handles.clear();
  }
}
