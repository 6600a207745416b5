import { Transform } from 'class-transformer';

/** Emails are compared and stored trimmed and in lower case (the unique indexes are on lower(email)). */
export const NormalizeEmail = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().toLowerCase() : value,
  );

/** Trims surrounding white space of a string field before validation (names, labels). */
export const Trim = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));
