import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import type { Actor } from '../common/actor';
import { GrantTokens } from './grant-tokens';

/**
 * `Authorization: Bearer <OAuth access token>` (typ at+jwt) or the internal agent token /mcp mints for a grant: see
 * GrantTokens. Runs between ApiKeyStrategy and JwtStrategy; any other token is not this strategy's (it fails, and
 * passport tries the next), while a grant token that does not verify or whose grant was revoked is refused at once.
 */
@Injectable()
export class GrantTokenStrategy extends PassportStrategy(Strategy, 'grant') {
  constructor(private readonly tokens: GrantTokens) {
    super();
  }

  async validate(token: string): Promise<Actor | false> {
    return this.tokens.authenticate(token);
  }
}
