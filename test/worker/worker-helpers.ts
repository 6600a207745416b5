import { randomInt } from 'node:crypto';
import { generateApiKey } from '../../src/auth/api-keys';
import { Tokens } from '../../src/auth/tokens';
import { createTestApp, TestApp } from '../support/app';

/** Worker tests send many public requests from one IP: the per-IP budget is lifted unless a test sets it. */
export function createWorkerTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  return createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000', ...env });
}

let counter = 0;
/** A phone number no other test in this run uses (random prefix, running suffix). */
export function newPhone(): string {
  counter += 1;
  return `1${randomInt(3, 10)}${String(randomInt(0, 100_000)).padStart(5, '0')}${String(counter).padStart(4, '0')}`;
}

export type Purpose = 'register' | 'login' | 'reset_password';

export async function sendCode(t: TestApp, phone: string, purpose: Purpose = 'register'): Promise<string> {
  const res = await t.http.post('/v1/worker/send-sms').query({ phone_number: phone, purpose }).expect(200);
  expect(res.body.sandbox_code).toMatch(/^\d{6}$/);
  return res.body.sandbox_code as string;
}

/** A code guaranteed to differ from `code`. */
export function wrongCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

export interface RegisteredWorker {
  phone: string;
  password: string;
  workerId: string;
  accessToken: string;
  refreshToken: string;
}

export async function registerWorker(
  t: TestApp,
  extra: { display_name?: string; skills?: string[] } = {},
): Promise<RegisteredWorker> {
  const phone = newPhone();
  const password = `pw-${randomInt(1e9)}-secret`;
  const code = await sendCode(t, phone, 'register');
  const res = await t.http
    .post('/v1/worker/register')
    .send({ phone_number: phone, password, sms_code: code, ...extra })
    .expect(201);
  return {
    phone,
    password,
    workerId: res.body.worker_id,
    accessToken: res.body.access_token,
    refreshToken: res.body.refresh_token,
  };
}

/** An agent row made directly in SQL, with a JWT pair and an API key, to prove agents cannot use worker routes. */
export async function createAgentCredentials(t: TestApp): Promise<{ jwt: string; apiKey: string }> {
  const [agent]: { id: string }[] = await t.db.query(
    `INSERT INTO agents (email, password_hash) VALUES ($1, 'not-a-real-hash') RETURNING id`,
    [`agent-${randomInt(1e9)}@example.com`],
  );
  const key = generateApiKey('lw_test_');
  await t.db.query(
    `INSERT INTO api_keys (agent_id, key_hash, secret_hash, prefix, name, permissions)
     VALUES ($1, $2, $3, $4, 'default', $5)`,
    [agent.id, key.keyHash, key.secretHash, key.prefix, ['task:create', 'task:read', 'task:cancel']],
  );
  const pair = await t.app.get(Tokens).issuePair('agent', agent.id);
  return { jwt: pair.access_token, apiKey: key.apiKey };
}

export function bearer(token: string): [string, string] {
  return ['Authorization', `Bearer ${token}`];
}
