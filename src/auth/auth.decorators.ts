import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { ErrorEnvelope } from '../common/errors/error-envelope.dto';
import type { Actor, ActorKind, AuthScheme, Permission } from './actor';

export const IS_PUBLIC = 'legwork:public';
export const AUTH_RULE = 'legwork:auth';

export interface AuthRule {
  actors: ActorKind[];
  /** Accepted credential schemes for agents; both by default. */
  schemes?: AuthScheme[];
  /** Permission an API key must hold. */
  permission?: Permission;
}

/** Opts a route out of the global deny-by-default guard. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

/**
 * Declares who may call a route and writes the matching OpenAPI security and error responses.
 * Everything not marked @Public() must carry @Auth(...) (the guard refuses routes without a rule).
 */
export function Auth(rule: AuthRule): MethodDecorator & ClassDecorator {
  const schemes = rule.schemes ?? ['api_key', 'jwt'];
  const security: string[] = [];
  if (rule.actors.includes('agent')) {
    if (schemes.includes('api_key')) security.push('api_key');
    if (schemes.includes('jwt')) security.push('agent_jwt');
  }
  if (rule.actors.includes('worker')) security.push('worker_jwt');
  if (rule.actors.includes('admin')) security.push('admin_jwt');
  const who = rule.actors.join(' or ');
  return applyDecorators(
    SetMetadata(AUTH_RULE, rule),
    ...security.map((s) => ApiBearerAuth(s)),
    ApiUnauthorizedResponse({
      type: ErrorEnvelope,
      description: 'authentication_required, invalid_api_key or invalid_token',
    }),
    ApiForbiddenResponse({
      type: ErrorEnvelope,
      description: `forbidden (credential is not ${who}${rule.schemes?.length === 1 ? ` via ${rule.schemes[0]}` : ''})${rule.permission ? `, insufficient_permissions (needs ${rule.permission})` : ''}, account_disabled`,
    }),
    ApiTooManyRequestsResponse({ type: ErrorEnvelope, description: 'rate_limit_exceeded' }),
  );
}

/** The authenticated actor of the request. */
export const CurrentActor = createParamDecorator((_data: unknown, ctx: ExecutionContext): Actor => {
  return ctx.switchToHttp().getRequest<Request>().actor!;
});
