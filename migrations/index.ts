import { Accounts1732200000000 } from './1732200000000-accounts';

/** Every migration, in order. Listed explicitly so every runtime (ts-jest, compiled JS) loads the same set. */
export const MIGRATIONS = [Accounts1732200000000];
