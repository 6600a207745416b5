/**
 * Works a queue with up to `maxInFlight` items at once: claims more (at most `batch` per claim, never more than there
 * is room for) as soon as slots free up, so one slow receiver holds up one slot, not a whole batch. Ends when a claim
 * finds nothing and everything in flight is done; returns how many items were worked. `work` must not throw (a
 * delivery records its own failure); if it does, the item only frees its slot. Once `keepClaiming` says no (the
 * process is shutting down) nothing more is claimed and the items in flight are finished.
 */
export async function drainPipelined<T>(
  claim: (limit: number) => Promise<T[]>,
  work: (item: T) => Promise<unknown>,
  batch: number,
  maxInFlight: number,
  keepClaiming: () => boolean = () => true,
): Promise<number> {
  const inFlight = new Set<Promise<void>>();
  let total = 0;
  for (;;) {
    const room = keepClaiming() ? Math.min(batch, maxInFlight - inFlight.size) : 0;
    const claimed = room > 0 ? await claim(room) : [];
    for (const item of claimed) {
      const done: Promise<void> = work(item).then(
        () => void inFlight.delete(done),
        () => void inFlight.delete(done),
      );
      inFlight.add(done);
    }
    total += claimed.length;
    if (inFlight.size === 0) return total;
    // A short claim means the queue is (for now) empty; wait for a slot either way. A finished delivery may release
    // the next event of its task, which the next claim then finds.
    if (claimed.length < room || room === 0 || inFlight.size >= maxInFlight) await Promise.race(inFlight);
  }
}
