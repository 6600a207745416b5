import { Accounts1732200000000 } from './1732200000000-accounts';
import { Ledger1732200003000 } from './1732200003000-ledger';
import { Tasks1732200004000 } from './1732200004000-tasks';
import { TaskLifecycle1732200007000 } from './1732200007000-task-lifecycle';

/** Every migration, in order. Listed explicitly so every runtime (ts-jest, compiled JS) loads the same set. */
export const MIGRATIONS = [
  Accounts1732200000000,
  Ledger1732200003000,
  Tasks1732200004000,
  TaskLifecycle1732200007000,
];
