import { Logger } from '../common/logging/logger';
import { ConfigError, loadConfig } from '../config/config';
import { loadEnvFile } from '../config/env-file';
import { createDataSource } from '../database/data-source';
import { startEmbeddedPostgres } from '../database/embedded-postgres';
import { runMigrations } from '../database/migrate';
import {
  ADMIN_CREATE_USAGE,
  AdminCreateUsageError,
  createOrUpdateAdmin,
  parseAdminCreateArgs,
  type AdminCreateArgs,
  type AdminCreateResult,
} from './admin-accounts';

/** Migrates the database at `url` (a no-op when current) and creates or updates the operator there. */
export async function adminCreate(
  url: string,
  args: AdminCreateArgs,
  logger: Logger,
): Promise<AdminCreateResult> {
  await runMigrations(url, logger);
  const ds = createDataSource(url, 2);
  await ds.initialize();
  try {
    return await createOrUpdateAdmin(ds, args);
  } finally {
    await ds.destroy();
  }
}

/** What a run changed on an existing operator, in words. */
function changes(args: AdminCreateArgs): string[] {
  const done: string[] = [];
  if (args.password !== undefined) done.push('password replaced');
  if (args.resetTotp) done.push('two-factor sign-in reset');
  if (args.requireTotp !== undefined) {
    done.push(args.requireTotp ? 'two-factor sign-in required' : 'two-factor sign-in no longer required');
  }
  return done;
}

/**
 * `npm run admin:create -- --email E --password P [--require-totp] [--reset-totp]`: against DATABASE_URL, or the embedded database (started
 * and stopped here) when it is unset, exactly like `npm start` would find it.
 */
async function main(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(ADMIN_CREATE_USAGE);
    return;
  }
  const args = parseAdminCreateArgs(argv);
  loadEnvFile();
  const config = loadConfig();
  const logger = new Logger(config.logLevel === 'silent' ? 'silent' : 'warn');
  const embedded = config.databaseUrl
    ? null
    : await startEmbeddedPostgres(config.dataDir, config.embeddedPgPort, logger);
  try {
    const result = await adminCreate(config.databaseUrl ?? embedded!.url, args, logger);
    console.log(
      result.created
        ? `Operator ${result.email} created (id ${result.id})${args.requireTotp ? '; two-factor sign-in required' : ''}.`
        : `Operator ${result.email} already existed: ${changes(args).join(', ')}; sessions ended (id ${result.id}).`,
    );
  } finally {
    await embedded?.stop();
    logger.flush();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    if (err instanceof AdminCreateUsageError)
      console.error(`admin:create: ${err.message}\n${ADMIN_CREATE_USAGE}`);
    else if (err instanceof ConfigError) console.error(err.message);
    else console.error('admin:create failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
