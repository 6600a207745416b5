import { ApiError } from '../common/errors/api-error';
import { PERMISSIONS, type Actor, type AgentActor, type Permission } from '../common/actor';
import { authorise } from './auth.guard';

function agent(scheme: 'api_key' | 'jwt', permissions: readonly Permission[] = PERMISSIONS): AgentActor {
  return {
    kind: 'agent',
    id: '00000000-0000-4000-8000-000000000001',
    scheme,
    keyId: scheme === 'api_key' ? '00000000-0000-4000-8000-000000000002' : null,
    permissions,
    limits: { perMinute: 100, perDay: 10_000 },
  };
}

function refusal(actor: Actor, rule: Parameters<typeof authorise>[1]): ApiError {
  try {
    authorise(actor, rule);
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('authorise (the guard rule check)', () => {
  it('refuses an API key lacking the route permission with 403 insufficient_permissions', () => {
    const err = refusal(agent('api_key', ['task:read']), { actors: ['agent'], permission: 'task:create' });
    expect(err.status).toBe(403);
    expect(err.code).toBe('insufficient_permissions');
    expect(err.extra).toEqual({ required_permission: 'task:create' });
  });

  it('lets an API key holding the permission through', () => {
    expect(() =>
      authorise(agent('api_key', ['task:read', 'task:create']), {
        actors: ['agent'],
        permission: 'task:create',
      }),
    ).not.toThrow();
  });

  it('a JWT session holds every permission', () => {
    for (const permission of PERMISSIONS) {
      expect(() => authorise(agent('jwt'), { actors: ['agent'], permission })).not.toThrow();
    }
  });

  it('routes without a permission accept a key with none', () => {
    expect(() => authorise(agent('api_key', []), { actors: ['agent'] })).not.toThrow();
  });

  it('JWT-only routes refuse API keys with 403 forbidden', () => {
    const err = refusal(agent('api_key'), { actors: ['agent'], schemes: ['jwt'] });
    expect(err.code).toBe('forbidden');
    expect(err.message).toMatch(/JWT/);
  });

  it('refuses the wrong kind of actor with 403 forbidden', () => {
    const worker: Actor = { kind: 'worker', id: '00000000-0000-4000-8000-000000000003', scheme: 'jwt' };
    const admin: Actor = {
      kind: 'admin',
      id: '00000000-0000-4000-8000-000000000004',
      scheme: 'jwt',
      sessionId: '00000000-0000-4000-8000-000000000005',
    };
    expect(refusal(worker, { actors: ['agent'] }).code).toBe('forbidden');
    expect(refusal(admin, { actors: ['agent'] }).code).toBe('forbidden');
    expect(refusal(agent('jwt'), { actors: ['admin'] }).code).toBe('forbidden');
    expect(() => authorise(admin, { actors: ['admin'] })).not.toThrow();
  });

  it('checks the actor kind before the permission', () => {
    const worker: Actor = { kind: 'worker', id: '00000000-0000-4000-8000-000000000003', scheme: 'jwt' };
    expect(refusal(worker, { actors: ['agent'], permission: 'task:create' }).code).toBe('forbidden');
  });
});
