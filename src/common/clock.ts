import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';

/** A time that every Clock reading inside `atTime` returns instead of the real one. */
const pinned = new AsyncLocalStorage<Date>();

/**
 * The source of "now" for business rules (deadlines, expiries, windows). SQL statements receive times from here as
 * parameters rather than calling now(), so tests can move time by replacing this provider, and a sandbox test clock
 * (product-decisions §12) can run the same rules at its own time through `atTime`.
 */
@Injectable()
export class Clock {
  now(): Date {
    const at = pinned.getStore();
    return at ? new Date(at.getTime()) : this.current();
  }

  /** Real time (the test suite's clock moves it). */
  protected current(): Date {
    return new Date();
  }
}

/**
 * Runs `work` with every Clock reading `at`, through every await inside it: what a sandbox test clock uses to run
 * the task rules, the simulated workers' steps and the events they write at the clock's time.
 */
export function atTime<T>(at: Date, work: () => T): T {
  return pinned.run(new Date(at.getTime()), work);
}
