import { Accounts1732200000000 } from './1732200000000-accounts';
import { WorkerAccounts1732200002000 } from './1732200002000-worker-accounts';
import { Ledger1732200003000 } from './1732200003000-ledger';
import { Tasks1732200004000 } from './1732200004000-tasks';
import { Webhooks1732200008000 } from './1732200008000-webhooks';

/** Every migration, in order. Listed explicitly so every runtime (ts-jest, compiled JS) loads the same set. */
export const MIGRATIONS = [
  Accounts1732200000000,
  WorkerAccounts1732200002000,
  Ledger1732200003000,
  Tasks1732200004000,
  Webhooks1732200008000,
];
