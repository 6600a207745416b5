import type { Response } from 'supertest';

/**
 * Asserts the error envelope's status and code together. It throws with the whole answer (rather than two
 * expects) so a failure shows what the API said instead of only which half differed.
 */
export function expectError(res: Response, status: number, code: string): void {
  if (res.status !== status || res.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
}
