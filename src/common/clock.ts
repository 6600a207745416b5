import { Injectable } from '@nestjs/common';

/**
 * The source of "now" for business rules (deadlines, expiries, windows). SQL statements receive times from here as
 * parameters rather than calling now(), so tests can move time by replacing this provider.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
