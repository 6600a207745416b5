import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import type { Actor } from '../common/actor';
import { Authenticator } from './authenticator';

/** Passport strategy for `Authorization: Bearer <API key or JWT>`. */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly authenticator: Authenticator) {
    super();
  }

  validate(token: string): Promise<Actor> {
    return this.authenticator.authenticate(token);
  }
}
