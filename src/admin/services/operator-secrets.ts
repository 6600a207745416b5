import { Inject, Injectable } from '@nestjs/common';
import { KeyedHash, SecretBox } from '../../common/secret-box';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';

/**
 * Operators' two-factor secrets at rest. A TOTP secret must be read back to check each code, so it is sealed
 * (AES-256-GCM) and bound to its account, the confirmed and the pending one apart; recovery codes are only compared,
 * so they are kept as keyed hashes. Both keys are derived from WEBHOOK_SECRET_KEY, the deployment's key for secrets
 * at rest, each for its own purpose.
 */
@Injectable()
export class OperatorSecrets {
  private readonly box: SecretBox;
  private readonly codes: KeyedHash;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.box = new SecretBox(config.webhooks.secretKey, 'operator totp secrets v1');
    this.codes = new KeyedHash(config.webhooks.secretKey, 'operator recovery codes v1');
  }

  sealTotp(secret: string, adminId: string, state: 'confirmed' | 'pending'): string {
    return this.box.seal(secret, `admin:${adminId}:${state}`);
  }

  openTotp(sealed: string, adminId: string, state: 'confirmed' | 'pending'): string {
    return this.box.open(sealed, `admin:${adminId}:${state}`);
  }

  hashRecoveryCode(normalised: string): string {
    return this.codes.hex(normalised);
  }
}
