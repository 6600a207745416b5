import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-jwt';
import type { Actor } from '../common/actor';
import { Authenticator } from './authenticator';
import { ACCESS_TOKEN_RULES, type AccessClaims, Tokens } from './tokens';

/**
 * `Authorization: Bearer <access JWT>`: passport-jwt verifies the signature with the algorithm, issuer and audiences
 * pinned (ACCESS_TOKEN_RULES); the claims then name the account, whose expiry and status Authenticator checks. Runs
 * after ApiKeyStrategy, which leaves it every token that is not an API key. A token that fails verification fails
 * the strategy; the guard answers invalid_token.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    tokens: Tokens,
    private readonly authenticator: Authenticator,
  ) {
    super({
      jwtFromRequest: bearerCredential,
      // A KeyObject, as Tokens signs with: jsonwebtoken accepts it and skips trying to read a string as a PEM key.
      secretOrKey: tokens.accessVerificationKey as unknown as Buffer,
      ...ACCESS_TOKEN_RULES,
    });
  }

  validate(claims: AccessClaims): Promise<Actor> {
    return this.authenticator.fromAccessClaims(claims);
  }
}

/**
 * The bearer credential read as ApiKeyStrategy (passport-http-bearer) reads it, so both strategies see the same
 * token: `Bearer` and the token separated by one space; a credential also sent as `access_token` in the body or the
 * query string is no credential (that strategy refuses one given twice).
 */
export function bearerCredential(req: Request): string | null {
  const parts = req.headers.authorization?.split(' ') ?? [];
  if (parts.length !== 2 || !/^Bearer$/i.test(parts[0]) || !parts[1]) return null;
  const body = req.body as { access_token?: unknown } | undefined;
  const query = req.query as { access_token?: unknown } | undefined;
  if (body?.access_token || query?.access_token) return null;
  return parts[1];
}
