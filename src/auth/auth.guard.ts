import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard as PassportAuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { ApiError } from '../common/errors/api-error';
import type { Actor } from '../common/actor';
import { ApiSecretVerifier } from './api-secret';
import { AUTH_RULE, AuthRule, IS_PUBLIC } from './auth.decorators';
import { invalidAccessToken } from './tokens';

/** Where passport looks for the credential, in order: an API key, else an access JWT. */
const STRATEGIES = ['api-key', 'jwt'];

/**
 * Global, deny-by-default authentication and authorisation. A route is either @Public() or declares an
 * @Auth(rule); a route with neither is refused, so forgetting the decorator can never open an endpoint.
 */
@Injectable()
export class AuthGuard extends PassportAuthGuard(STRATEGIES) {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiSecrets: ApiSecretVerifier,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
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
    await super.canActivate(context);
    // handleRequest refuses a missing actor, so passport has set it by now.
    const actor = req.actor;
    if (!actor) throw new ApiError('invalid_token', 'The credential is invalid.');
    // The secret is part of the credential, so a missing or wrong one is 401 before any 403 of the rule check.
    if (rule.apiSecret && actor.kind === 'agent') {
      await this.apiSecrets.verify(actor, req.header('x-api-secret'));
    }
    authorise(actor, rule);
    return true;
  }

  override handleRequest<TUser = Actor>(err: unknown, user: TUser | false, info: unknown): TUser {
    if (err) throw err as Error;
    // Every strategy failed: the JWT strategy's failure is jsonwebtoken's refusal when the token was one to verify.
    if (!user)
      throw refusedJwt(info)
        ? invalidAccessToken()
        : new ApiError('invalid_token', 'The credential is invalid.');
    return user;
  }

  /** Passport writes the validated actor to req.actor instead of req.user. */
  override getAuthenticateOptions(): { property: string; session: boolean } {
    return { property: 'actor', session: false };
  }

  override getRequest(context: ExecutionContext): Request {
    return context.switchToHttp().getRequest<Request>();
  }
}

/** Whether passport's failures (one per strategy) include jsonwebtoken refusing a token (bad signature, claims). */
function refusedJwt(info: unknown): boolean {
  const failures: unknown[] = Array.isArray(info) ? info : [info];
  return failures.some((f) => f instanceof Error && JWT_REFUSALS.has(f.name));
}

const JWT_REFUSALS = new Set(['JsonWebTokenError', 'TokenExpiredError', 'NotBeforeError']);

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
      throw new ApiError(
        'forbidden',
        actor.scheme === 'api_key'
          ? 'This endpoint requires a login token (JWT); API keys are not accepted here.'
          : 'This endpoint requires an API key.',
      );
    }
    if (rule.permission && !actor.permissions.includes(rule.permission)) {
      throw new ApiError(
        'insufficient_permissions',
        `This API key lacks the ${rule.permission} permission.`,
        {
          required_permission: rule.permission,
        },
      );
    }
  }
}
