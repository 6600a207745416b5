/** Who is calling. Set on the request by the global AuthGuard; services receive it explicitly. */
export type ActorKind = 'agent' | 'worker' | 'admin';
/**
 * How an agent authenticated: an API key (or the internal agent token /mcp mints for an OAuth grant, which acts
 * like a key with the grant's permissions), the console's login JWT, or an OAuth access token (accepted at /mcp only).
 */
export type AuthScheme = 'api_key' | 'jwt' | 'oauth';

export const PERMISSIONS = [
  'task:create',
  'task:read',
  'task:cancel',
  'payment:read',
  'payment:write',
  'webhook:manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export interface AgentActor {
  kind: 'agent';
  id: string;
  scheme: AuthScheme;
  /** The API key used, when scheme is api_key (null for a grant's internal agent token). */
  keyId: string | null;
  /** The OAuth grant behind the credential (an OAuth access token or its internal agent token), else null. */
  grantId?: string | null;
  /** Permissions of the key; a JWT (the agent's own console session) holds all of them. */
  permissions: readonly Permission[];
  /** The agent's rate limits (by tier); JWT traffic counts against the same agent budget. */
  limits: { perMinute: number; perDay: number };
}

export interface WorkerActor {
  kind: 'worker';
  id: string;
  scheme: 'jwt';
}

export interface AdminActor {
  kind: 'admin';
  id: string;
  scheme: 'jwt';
  /** The session (refresh family) the access token belongs to: checked live on every operator request. */
  sessionId: string;
}

export type Actor = AgentActor | WorkerActor | AdminActor;

/** Of an agent or worker account; anything but active is refused with account_disabled. */
export type AccountStatus = 'active' | 'suspended' | 'closed';
