import type { ValueTransformer } from 'typeorm';

/** bigint columns arrive from pg as strings; counters and cents stay far below 2^53, so numbers are exact. */
export const bigintNumber: ValueTransformer = {
  to: (v: number | null | undefined) => v,
  from: (v: string | null) => (v === null ? null : Number(v)),
};
