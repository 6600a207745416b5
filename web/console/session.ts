import { createApi } from '../shared/api';
import { Session } from '../shared/auth';

/**
 * The console has two kinds of people, each with its own session and refresh token: an agent's people (agent JWT,
 * /v1/agent/refresh) and operators (operator JWT, /v1/admin/refresh, product-decisions §8). Each keeps only its
 * refresh token in localStorage (shared/auth.ts); access tokens stay in memory. Signing out also revokes the refresh
 * token's session on the server (/v1/agent/logout, /v1/admin/logout), so a copy of the token no longer works; an
 * operator's access tokens stop working with it, and an operator's session ends 12 hours after sign-in anyway.
 */
export const agentSession = new Session('/v1/agent/refresh', 'legwork.console.refresh', '/v1/agent/logout');
export const agentApi = createApi(agentSession);
export const adminSession = new Session(
  '/v1/admin/refresh',
  'legwork.console.admin.refresh',
  '/v1/admin/logout',
);
export const adminApi = createApi(adminSession);
