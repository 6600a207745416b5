import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiSecurity } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiErrors } from '../common/errors/api-errors.decorator';
import type { Actor, ActorKind, AuthScheme, Permission } from '../common/actor';

export const IS_PUBLIC = 'legwork:public';
export const AUTH_RULE = 'legwork:auth';

export interface AuthRule {
  actors: ActorKind[];
  /** Accepted credential schemes for agents; both by default. */
  schemes?: AuthScheme[];
  /** Permission an API key must hold. */
  permission?: Permission;
  /**
   * Agents must also send `X-API-Secret` with the secret of their current API key (the reference payment surface,
   * product-decisions §6). Checked after the bearer credential, whichever scheme it is; missing or wrong is 401
   * invalid_credentials.
   */
  apiSecret?: boolean;
}

/** Name of the OpenAPI security scheme for the X-API-Secret header (registered in src/openapi/openapi.ts). */
export const API_SECRET_SCHEME = 'api_secret';

/** OpenAPI extension listing the permissions an API key needs for an operation (all of them). */
export const PERMISSIONS_EXTENSION = 'x-permissions';

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
  // With an API secret each bearer scheme is listed together with the secret header (both are required).
  const securityDecorators = rule.apiSecret
    ? security.map((s) => ApiSecurity({ [s]: [], [API_SECRET_SCHEME]: [] }))
    : security.map((s) => ApiBearerAuth(s));
  // OpenAPI's security requirements cannot carry a permission for a bearer scheme (scopes are for OAuth), so the
  // permission an API key needs is an extension, written from the same rule the guard enforces: clients and the
  // generated security table (test/system/security-table.e2e-spec.ts) read it from there.
  const permissionDecorators = rule.permission
    ? [ApiExtension(PERMISSIONS_EXTENSION, [rule.permission])]
    : [];
  return applyDecorators(
    SetMetadata(AUTH_RULE, rule),
    ...securityDecorators,
    ...permissionDecorators,
    ApiErrors(
      {
        401: [
          'authentication_required',
          'invalid_api_key',
          'invalid_token',
          ...(rule.apiSecret ? (['invalid_credentials'] as const) : []),
        ],
        403: [
          'forbidden',
          ...(rule.permission ? (['insufficient_permissions'] as const) : []),
          'account_disabled',
        ],
        429: ['rate_limit_exceeded'],
      },
      { insufficient_permissions: rule.permission && `This one needs \`${rule.permission}\`.` },
    ),
  );
}

/** The authenticated actor of the request. */
export const CurrentActor = createParamDecorator((_data: unknown, ctx: ExecutionContext): Actor => {
  return ctx.switchToHttp().getRequest<Request>().actor!;
});
