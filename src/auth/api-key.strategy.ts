import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import type { Actor } from '../common/actor';
import { looksLikeApiKey } from './api-keys';
import { Authenticator } from './authenticator';

/**
 * `Authorization: Bearer lw_live_…` / `lw_test_…`: an API key, looked up by its hash (AuthCache). Any other bearer
 * token is not this strategy's: it fails here, and passport tries the next one (JwtStrategy). A key that does not
 * resolve is refused at once (invalid_api_key), without a JWT attempt.
 */
@Injectable()
export class ApiKeyStrategy extends PassportStrategy(Strategy, 'api-key') {
  constructor(private readonly authenticator: Authenticator) {
    super();
  }

  async validate(token: string): Promise<Actor | false> {
    return looksLikeApiKey(token) ? this.authenticator.fromApiKey(token) : false;
  }
}
