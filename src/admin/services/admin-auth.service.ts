import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { TokenPairResponse } from '../../auth/dtos/token-pair.dto';
import { LoginThrottle } from '../../auth/login-throttle';
import { PasswordHasher } from '../../auth/passwords';
import { Tokens } from '../../auth/tokens';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import type { AdminRow } from '../admin.rows';
import type { AdminAuthResponse, AdminLoginRequest } from '../dtos/admin-auth.dto';

/** Operator login and refresh: tokens with the admin audience, the same lock-out as every login. */
@Injectable()
export class AdminAuthService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly hasher: PasswordHasher,
    private readonly tokens: Tokens,
    private readonly throttle: LoginThrottle,
  ) {}

  async login(dto: AdminLoginRequest): Promise<AdminAuthResponse> {
    const rows = await sqlRows<Pick<AdminRow, 'id' | 'email' | 'password_hash'>>(
      this.ds,
      `SELECT id, email, password_hash FROM admins WHERE lower(email) = $1`,
      [dto.email.toLowerCase()],
    );
    const admin = rows[0];
    if (!admin) {
      await this.hasher.verify(null, dto.password);
      throw invalidCredentials();
    }
    const ok = await this.throttle.attempt('admin', admin.id, () =>
      this.hasher.verify(admin.password_hash, dto.password),
    );
    if (!ok) throw invalidCredentials();
    return { ...(await this.tokens.issuePair('admin', admin.id)), admin_id: admin.id, email: admin.email };
  }

  async refresh(refreshToken: string): Promise<TokenPairResponse> {
    return (await this.tokens.rotate('admin', refreshToken)).pair;
  }
}

function invalidCredentials(): ApiError {
  return new ApiError('invalid_credentials', 'The email or password is wrong.');
}
