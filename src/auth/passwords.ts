import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';

/**
 * argon2id with the OWASP Password Storage Cheat Sheet parameters (19 MiB memory, 2 iterations, 1 lane).
 * A dummy hash is verified for unknown accounts so that login time does not reveal whether an account exists.
 */
@Injectable()
export class PasswordHasher {
  private static readonly OPTIONS = {
    type: argon2.argon2id as 2,
    memoryCost: 19_456,
    timeCost: 2,
    parallelism: 1,
  };
  private dummy: Promise<string> | null = null;

  hash(password: string): Promise<string> {
    return argon2.hash(password, PasswordHasher.OPTIONS);
  }

  async verify(hash: string | null | undefined, password: string): Promise<boolean> {
    if (!hash) {
      this.dummy ??= this.hash('legwork-dummy-password');
      await argon2.verify(await this.dummy, password).catch(() => false);
      return false;
    }
    return argon2.verify(hash, password).catch(() => false);
  }
}
