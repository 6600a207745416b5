import { Clock } from '../../src/common/clock';

/**
 * A clock the tests can move forward (or hold still); it otherwise follows real time (and a sandbox test clock's
 * atTime wins).
 */
export class TestClock extends Clock {
  private offsetMs = 0;
  private heldAt: number | null = null;

  protected override current(): Date {
    return new Date((this.heldAt ?? Date.now()) + this.offsetMs);
  }

  /**
   * Stops the clock where it is (advance still moves it) until release(): a test that counts requests in a fixed
   * window then sees one window however slowly the machine runs, and wherever in the window it started.
   */
  hold(): void {
    this.heldAt ??= Date.now();
  }

  /** Lets the clock follow real time again (it jumps forward by the time it was held). */
  release(): void {
    this.heldAt = null;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  advanceMinutes(minutes: number): void {
    this.advance(minutes * 60_000);
  }

  advanceHours(hours: number): void {
    this.advance(hours * 3_600_000);
  }
}
