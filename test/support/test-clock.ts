import { Clock } from '../../src/common/clock';

/** A clock the tests can move forward; it otherwise follows real time (and a sandbox test clock's atTime wins). */
export class TestClock extends Clock {
  private offsetMs = 0;

  protected override current(): Date {
    return new Date(Date.now() + this.offsetMs);
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
