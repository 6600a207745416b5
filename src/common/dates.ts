import { ValidateBy, ValidationOptions } from 'class-validator';
import { ApiError } from './errors/api-error';

export const DAY_MS = 86_400_000;

/** A parsed ISO 8601 query value: the instant it names, and whether it was a bare date (a whole UTC day). */
export interface IsoInstant {
  at: Date;
  dateOnly: boolean;
}

const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Accepts `YYYY-MM-DD` (midnight UTC) and `YYYY-MM-DDThh:mm[:ss[.fff]][Z|±hh:mm]` (no zone means UTC). Refuses what
 * `new Date()` would silently roll over (2024-02-30, 24:00) and the exotic ISO forms (week or ordinal dates).
 */
export function parseIsoInstant(value: unknown): IsoInstant | null {
  if (typeof value !== 'string') return null;
  const m = ISO_8601.exec(value);
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = m;
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (
    day.getUTCFullYear() !== Number(y) ||
    day.getUTCMonth() !== Number(mo) - 1 ||
    day.getUTCDate() !== Number(d)
  )
    return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  const dateOnly = m[4] === undefined;
  const at = dateOnly ? day : new Date(zone ? value : `${value}Z`);
  return Number.isNaN(at.getTime()) ? null : { at, dateOnly };
}

/** class-validator rule for an ISO 8601 date or date-time query value (see parseIsoInstant). */
export function IsIsoInstant(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isIsoInstant',
      validator: {
        validate: (value) => parseIsoInstant(value) !== null,
        defaultMessage: () =>
          '$property must be an ISO 8601 date (YYYY-MM-DD) or date-time (YYYY-MM-DDThh:mm:ssZ)',
      },
    },
    options,
  );
}

/** A half-open time range [from, to). */
export interface InstantRange {
  from: Date | null;
  to: Date | null;
}

/**
 * Turns start_date/end_date into [from, to). A bare end date includes its whole day; an end date-time is itself
 * included. Start after end is a validation error.
 */
export function instantRange(start?: string, end?: string): InstantRange {
  const s = start === undefined ? null : parseIsoInstant(start);
  const e = end === undefined ? null : parseIsoInstant(end);
  if (start !== undefined && !s) throw ApiError.field('start_date', 'must be an ISO 8601 date or date-time');
  if (end !== undefined && !e) throw ApiError.field('end_date', 'must be an ISO 8601 date or date-time');
  if (s && e && s.at.getTime() > e.at.getTime())
    throw ApiError.field('start_date', 'must not be after end_date');
  return {
    from: s ? s.at : null,
    to: e ? new Date(e.at.getTime() + (e.dateOnly ? DAY_MS : 1)) : null,
  };
}

/** The UTC calendar day of an instant, as YYYY-MM-DD. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * A whole-day range for statistics: the UTC days of start and end, both included, at most `maxDays` long.
 * `from`/`to` bound it as instants ([first day 00:00, day after the last 00:00)).
 */
export function dayRange(
  start: string,
  end: string,
  maxDays: number,
): { firstDay: string; lastDay: string; days: number; from: Date; to: Date } {
  const r = instantRange(start, end);
  const from = new Date(`${utcDay(r.from!)}T00:00:00Z`);
  const lastDay = utcDay(new Date(r.to!.getTime() - 1));
  const to = new Date(Date.parse(`${lastDay}T00:00:00Z`) + DAY_MS);
  const days = Math.round((to.getTime() - from.getTime()) / DAY_MS);
  if (days > maxDays) throw ApiError.field('end_date', `the range may cover at most ${maxDays} days`);
  return { firstDay: utcDay(from), lastDay, days, from, to };
}
