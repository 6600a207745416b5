/**
 * Errors that mean "the database could not be reached or dropped the connection", as opposed to an error in what
 * was asked of it: connection exceptions (SQLSTATE class 08), the server shutting down or terminating the session
 * (57P01 to 57P03), too many connections, the pool timing out waiting for a connection, and sockets closed under a
 * query. Whether the request's transaction committed can be unknown (a COMMIT whose answer was lost): a retry with
 * the same Idempotency-Key settles it, since money handlers store their answer in that same transaction.
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection terminated unexpectedly',
  'connect ECONNREFUSED',
  'read ECONNRESET',
];

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 3; depth++) {
    const { code, message, driverError } = e as { code?: unknown; message?: unknown; driverError?: unknown };
    if (typeof code === 'string' && (SQLSTATES.has(code) || code.startsWith('08'))) return true;
    if (code === 'ECONNREFUSED' || code === 'ECONNRESET') return true;
    if (typeof message === 'string' && MESSAGES.some((m) => message.includes(m))) return true;
    e = driverError;
  }
  return false;
}

/**
 * PostgreSQL refusing a value itself, before any business rule: text that is not a valid uuid/number/date
 * (22P02, 22007, 22008), NUL bytes in text or jsonb (22021, 22P05), numbers out of range (22003). Only input that
 * slipped past request validation gets there.
 */
const INPUT_SQLSTATES = new Set(['22P02', '22007', '22008', '22021', '22P05', '22003']);

export function isRejectedInput(err: unknown): boolean {
  const e = err as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' && INPUT_SQLSTATES.has(code);
}
