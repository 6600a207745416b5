import { randomUUID } from 'node:crypto';
import { generateApiKey } from '../../src/auth/api-keys';
import { PERMISSIONS, Permission } from '../../src/common/actor';
import { Tokens } from '../../src/auth/tokens';
import { inTransaction } from '../../src/database/transaction';
import { Ledger } from '../../src/escrow/services/ledger';
import type { TestApp } from './app';

export interface TestAgent {
  id: string;
  email: string;
  apiKey: string;
  apiSecret: string;
  keyId: string;
  jwt: string;
  /** Authorization header value for the API key. */
  key: string;
  /** Authorization header value for the JWT. */
  bearer: string;
}

export interface TestWorker {
  id: string;
  phone: string;
  jwt: string;
  bearer: string;
}

let phoneCounter = 0;

/**
 * Fixture agents and workers made directly in the database (fast, and independent of the account endpoints, which
 * have their own tests). Balance is funded through the real ledger (a manual bank deposit), never by writing
 * balances by hand.
 */
export async function createAgent(
  t: TestApp,
  opts: { balanceCents?: number; permissions?: Permission[]; rateLimitPerMinute?: number } = {},
): Promise<TestAgent> {
  const email = `agent-${randomUUID()}@example.com`;
  const [{ id }]: { id: string }[] = await t.db.query(
    `INSERT INTO agents (email, password_hash, rate_limit_per_minute) VALUES ($1, 'fixture-no-login', $2) RETURNING id`,
    [email, opts.rateLimitPerMinute ?? 100000],
  );
  const key = generateApiKey(t.config.apiKeyPrefix);
  const [{ id: keyId }]: { id: string }[] = await t.db.query(
    `INSERT INTO api_keys (agent_id, key_hash, secret_hash, prefix, name, permissions)
     VALUES ($1, $2, $3, $4, 'Primary API Key', $5) RETURNING id`,
    [id, key.keyHash, key.secretHash, key.prefix, opts.permissions ?? [...PERMISSIONS]],
  );
  if (opts.balanceCents) await fundAgent(t, id, opts.balanceCents);
  const pair = await t.app.get(Tokens).issuePair('agent', id);
  return {
    id,
    email,
    apiKey: key.apiKey,
    apiSecret: key.apiSecret,
    keyId,
    jwt: pair.access_token,
    key: `Bearer ${key.apiKey}`,
    bearer: `Bearer ${pair.access_token}`,
  };
}

export async function fundAgent(t: TestApp, agentId: string, amountCents: number): Promise<void> {
  const ledger = t.app.get(Ledger);
  await inTransaction(t.db, (em) =>
    ledger.manualCredit(em, {
      agentId,
      amountCents,
      creditKey: `fixture:${randomUUID()}`,
      reason: 'test funding',
    }),
  );
}

/**
 * A worker made in the database. Like a worker who has consented in the app, it holds the current consent to
 * precise location (product-decisions §19), so it can go on call; `consent: false` makes one who has not.
 */
export async function createWorker(
  t: TestApp,
  opts: { skills?: string[]; consent?: boolean } = {},
): Promise<TestWorker> {
  phoneCounter = (phoneCounter + 1) % 1_000_000;
  const phone = `19${String(process.pid % 1000).padStart(3, '0')}${String(phoneCounter).padStart(6, '0')}`;
  const [{ id }]: { id: string }[] = await t.db.query(
    `INSERT INTO workers (phone_number, password_hash, skills) VALUES ($1, 'fixture-no-login', $2) RETURNING id`,
    [phone, opts.skills ?? []],
  );
  if (opts.consent !== false) await giveLocationConsent(t, id);
  const pair = await t.app.get(Tokens).issuePair('worker', id);
  return { id, phone, jwt: pair.access_token, bearer: `Bearer ${pair.access_token}` };
}

/** The worker's consent to the current version of the precise-location text, as POST /v1/worker/consents records. */
export async function giveLocationConsent(t: TestApp, workerId: string): Promise<void> {
  await t.db.query(
    `INSERT INTO worker_consents (worker_id, kind, version, given_at)
     SELECT $1, kind, max(version), $2 FROM consent_versions WHERE kind = 'precise_location' GROUP BY kind`,
    [workerId, t.clock.now()],
  );
}

export function uniqueKey(prefix = 'idem'): string {
  return `${prefix}-${randomUUID()}`;
}
