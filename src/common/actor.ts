/** Who is calling. Set on the request by the global AuthGuard; services receive it explicitly. */
export type ActorKind = 'agent' | 'worker' | 'admin';
export type AuthScheme = 'api_key' | 'jwt';

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
  /** The API key used, when scheme is api_key. */
  keyId: string | null;
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
