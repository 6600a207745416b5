import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { createSecretKey, KeyObject, randomUUID } from 'node:crypto';
import { Clock } from '../common/clock';
import { ApiError } from '../common/errors/api-error';
import type { ActorKind } from '../common/actor';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { AUDIENCE } from './tokens';

/** What the holder of a challenge still has to do: give a code, or confirm a new enrolment with its first code. */
export type ChallengePurpose = 'totp' | 'totp_enrolment';

/** Long enough to open the authenticator app (or scan a first QR code), short enough to be useless later. */
export const CHALLENGE_TTL_SECONDS = 300;

const ISSUER = 'legwork';
const ALGORITHM = 'HS256' as const;

/**
 * The middle of a two-step sign-in: after the password, a short-lived signed token that says "this account's password
 * was right, a second factor is still due". It is not a credential anywhere else (its own audience), carries no
 * secret, and proves nothing alone: the second step still needs a valid code, and wrong codes count as failed logins.
 */
@Injectable()
export class SignInChallenges {
  private readonly key: KeyObject;

  constructor(
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.key = createSecretKey(Buffer.from(config.jwt.accessSecret));
  }

  issue(kind: ActorKind, subjectId: string, purpose: ChallengePurpose): Promise<string> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return this.jwt.signAsync(
      { sub: subjectId, purpose, iat: now, exp: now + CHALLENGE_TTL_SECONDS },
      {
        secret: this.key as unknown as string,
        audience: audience(kind),
        issuer: ISSUER,
        algorithm: ALGORITHM,
        jwtid: randomUUID(),
      },
    );
  }

  async verify(kind: ActorKind, token: string): Promise<{ subjectId: string; purpose: ChallengePurpose }> {
    try {
      const payload = await this.jwt.verifyAsync<{ sub: string; purpose: ChallengePurpose }>(token, {
        secret: this.key as unknown as string,
        audience: audience(kind),
        issuer: ISSUER,
        algorithms: [ALGORITHM],
        clockTimestamp: Math.floor(this.clock.now().getTime() / 1000),
      });
      return { subjectId: payload.sub, purpose: payload.purpose };
    } catch {
      throw new ApiError(
        'invalid_token',
        'The sign-in challenge is invalid or expired (it lasts 5 minutes): sign in with the password again.',
      );
    }
  }
}

function audience(kind: ActorKind): string {
  return `${AUDIENCE[kind]}:challenge`;
}
