import { SmsCode } from '../worker/entities/sms-code.entity';
import { Worker } from '../worker/entities/worker.entity';

/** Every TypeORM entity. Listed explicitly (no globs) so all runtimes load the same set. */
export const ENTITIES = [Worker, SmsCode];
