import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Passport } from 'passport';
import type { Request, RequestHandler, Response } from 'express';
import { ApiError } from '../common/errors/api-error';
import type { Actor, AuthScheme } from '../common/actor';
import { ApiKeyStrategy } from './api-key.strategy';
import { ApiSecretVerifier } from './api-secret';
import { AUTH_RULE, AuthRule, IS_PUBLIC } from './auth.decorators';
import { GrantTokenStrategy } from './grant-token.strategy';
import { JwtStrategy } from './jwt.strategy';
import { invalidAccessToken } from './tokens';

/** Where passport looks for the credential, in order: an API key, else an OAuth grant's token, else an access JWT. */
const STRATEGIES = ['api-key', 'grant', 'jwt'];

/**
 * Global, deny-by-default authentication and authorisation. A route is either @Public() or declares an
 * @Auth(rule); a route with neither is refused, so forgetting the decorator can never open an endpoint.
 *
 * The credential is resolved by this app's own passport, holding this app's strategies: passport's default instance
 * is one per process, where strategies register by name, so two apps in one process (a test's second instance on the
 * same database) would both authenticate through whichever registered last, with its cache.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly passport = new Passport();

  constructor(
    private readonly reflector: Reflector,
    private readonly apiSecrets: ApiSecretVerifier,
    apiKeys: ApiKeyStrategy,
    grants: GrantTokenStrategy,
    jwt: JwtStrategy,
  ) {
    this.passport.use('api-key', apiKeys);
    this.passport.use('grant', grants);
    this.passport.use('jwt', jwt);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const rule = this.reflector.getAllAndOverride<AuthRule | undefined>(AUTH_RULE, targets);
    if (!rule) throw new ApiError('forbidden', 'This route has no access rule.');

    const req = context.switchToHttp().getRequest<Request>();
    const header = req.header('authorization');
    if (!header) {
      throw new ApiError(
        'authentication_required',
        'Send an Authorization: Bearer <API key or token> header.',
      );
    }
    if (!/^Bearer\s+\S+$/i.test(header.trim())) {
      throw new ApiError(
        'authentication_required',
        'The Authorization header must be "Bearer <API key or token>".',
      );
    }
    const actor = await this.authenticate(req, context.switchToHttp().getResponse<Response>());
    req.actor = actor;
    // The secret is part of the credential, so a missing or wrong one is 401 before any 403 of the rule check.
    if (rule.apiSecret && actor.kind === 'agent') {
      await this.apiSecrets.verify(actor, req.header('x-api-secret'));
    }
    authorise(actor, rule);
    return true;
  }

  /** The strategies in order: the first to succeed names the actor; an error (a refused key) stops at once. */
  private authenticate(req: Request, res: Response): Promise<Actor> {
    return new Promise((resolve, reject) => {
      const done = (err: unknown, user: Actor | false, info: unknown): void => {
        if (err) reject(err instanceof Error ? err : new Error('authentication failed', { cause: err }));
        // Every strategy failed: the JWT strategy's failure is jsonwebtoken's refusal when the token was one.
        else if (!user) reject(refusedJwt(info) ? invalidAccessToken() : invalidCredential());
        else resolve(user);
      };
      // With a callback passport calls next() for nothing.
      const middleware = this.passport.authenticate(STRATEGIES, { session: false }, done) as RequestHandler;
      void middleware(req, res, () => reject(invalidCredential()));
    });
  }
}

function invalidCredential(): ApiError {
  return new ApiError('invalid_token', 'The credential is invalid.');
}

/** Whether passport's failures (one per strategy) include jsonwebtoken refusing a token (bad signature, claims). */
function refusedJwt(info: unknown): boolean {
  const failures: unknown[] = Array.isArray(info) ? info : [info];
  return failures.some((f) => f instanceof Error && JWT_REFUSALS.has(f.name));
}

const JWT_REFUSALS = new Set(['JsonWebTokenError', 'TokenExpiredError', 'NotBeforeError']);

const SCHEME_REFUSAL: Record<AuthScheme, string> = {
  api_key: 'This endpoint requires a login token (JWT); API keys are not accepted here.',
  jwt: 'This endpoint requires an API key.',
  oauth: 'OAuth access tokens are accepted at /mcp only; call the API with an API key.',
};

/** The authorisation half of the guard: may this (authenticated) actor call a route with this rule? */
export function authorise(actor: Actor, rule: AuthRule): void {
  if (!rule.actors.includes(actor.kind)) {
    throw new ApiError(
      'forbidden',
      `This endpoint is for ${rule.actors.join(' or ')} credentials, not ${actor.kind}.`,
    );
  }
  if (actor.kind === 'agent') {
    const schemes = rule.schemes ?? ['api_key', 'jwt'];
    if (!schemes.includes(actor.scheme)) {
      throw new ApiError('forbidden', SCHEME_REFUSAL[actor.scheme]);
    }
    if (rule.permission && !actor.permissions.includes(rule.permission)) {
      throw new ApiError(
        'insufficient_permissions',
        actor.grantId
          ? `This OAuth grant lacks the ${rule.permission} permission: approve it in the console.`
          : `This API key lacks the ${rule.permission} permission.`,
        {
          required_permission: rule.permission,
        },
      );
    }
  }
}
