import { randomUUID } from 'node:crypto';
import type { TestApp } from './app';
import type { TestClock } from './test-clock';

export interface RegisteredAgent {
  id: string;
  email: string;
  password: string;
  apiKey: string;
  apiSecret: string;
  accessToken: string;
  refreshToken: string;
}

export const AGENT_PASSWORD = 'correct horse battery';

export function uniqueEmail(label = 'agent'): string {
  return `${label}-${randomUUID()}@example.com`;
}

/** Registers a fresh agent through the API (each test makes its own accounts). */
export async function registerAgent(
  t: TestApp,
  body: Record<string, unknown> = {},
): Promise<RegisteredAgent> {
  const payload = { email: uniqueEmail(), password: AGENT_PASSWORD, ...body };
  const res = await t.http.post('/v1/agent/register').send(payload);
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return {
    id: res.body.agent_id,
    email: res.body.email,
    password: payload.password,
    apiKey: res.body.api_key,
    apiSecret: res.body.api_secret,
    accessToken: res.body.access_token,
    refreshToken: res.body.refresh_token,
  };
}

export function bearer(token: string): { Authorization: string } {
  return { Authorization: `Bearer ${token}` };
}

/**
 * Moves the test clock to just after the start of a minute, so a test that counts requests in a fixed
 * one-minute rate-limit window has nearly a full minute before the window turns over.
 */
export function alignToMinuteStart(clock: TestClock): void {
  const intoMinute = clock.now().getTime() % 60_000;
  clock.advance(60_000 - intoMinute + 50);
}

/** Inserts a worker row directly (the worker module owns registration) and returns its id. */
export async function insertWorker(t: TestApp): Promise<string> {
  const phone = `13${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  const rows: { id: string }[] = await t.db.query(
    `INSERT INTO workers (phone_number, password_hash) VALUES ($1, 'not-a-real-hash') RETURNING id`,
    [phone],
  );
  return rows[0].id;
}
