import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { generateApiKey } from '../../auth/api-keys';
import type { TokenPairResponse } from '../../auth/dtos/token-pair.dto';
import { LoginThrottle } from '../../auth/login-throttle';
import { PasswordHasher } from '../../auth/passwords';
import { Tokens } from '../../auth/tokens';
import { PERMISSIONS } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlExec, sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { Balances } from '../../escrow/services/balances';
import type { AgentRow, ApiKeyRow } from '../agent.repository';
import { DEFAULT_KEY_NAME } from './api-keys.service';
import type { AgentAuthResponse, AgentLoginRequest, AgentRegisterRequest } from '../dtos/agent-auth.dto';

/** Agent registration, password login and token refresh. */
@Injectable()
export class AgentAuthService {
  constructor(
    private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly hasher: PasswordHasher,
    private readonly tokens: Tokens,
    private readonly throttle: LoginThrottle,
    private readonly balances: Balances,
    private readonly clock: Clock,
  ) {}

  /**
   * Creates the agent and its single API key (all permissions) in one transaction. The email check is the
   * insert itself (ON CONFLICT on the lower(email) index), so two concurrent registrations cannot both succeed.
   */
  async register(dto: AgentRegisterRequest): Promise<AgentAuthResponse> {
    const passwordHash = await this.hasher.hash(dto.password);
    const key = generateApiKey(this.config.apiKeyPrefix);
    const now = this.clock.now();
    const agent = await inTransaction(this.ds, async (em) => {
      const rows = await sqlRows<Pick<AgentRow, 'id' | 'email' | 'organization_name'>>(
        em,
        `INSERT INTO agents (email, password_hash, organization_name, company_name, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT ((lower(email))) DO NOTHING
         RETURNING id, email, organization_name`,
        [dto.email, passwordHash, dto.organization_name ?? null, dto.company_name ?? null, now],
      );
      if (rows.length === 0) throw new ApiError('email_taken', 'An account with this email already exists.');
      await sqlExec(
        em,
        `INSERT INTO api_keys (agent_id, key_hash, secret_hash, prefix, name, permissions, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
        [rows[0].id, key.keyHash, key.secretHash, key.prefix, DEFAULT_KEY_NAME, [...PERMISSIONS], now],
      );
      return rows[0];
    });
    const pair = await this.tokens.issuePair('agent', agent.id);
    return {
      ...pair,
      agent_id: agent.id,
      email: agent.email,
      organization_name: agent.organization_name,
      api_key: key.apiKey,
      api_secret: key.apiSecret,
      api_key_prefix: key.prefix,
      balance_cents: (await this.balances.agentFunds(agent.id)).availableCents,
    };
  }

  /**
   * Unknown email and wrong password give the same 401 after the same amount of hashing work. The password is
   * checked before the account status, so only the owner learns that an account is suspended.
   */
  async login(dto: AgentLoginRequest): Promise<AgentAuthResponse> {
    const rows = await sqlRows<
      Pick<AgentRow, 'id' | 'email' | 'organization_name' | 'password_hash' | 'account_status'>
    >(
      this.ds,
      `SELECT id, email, organization_name, password_hash, account_status FROM agents WHERE lower(email) = $1`,
      [dto.email.toLowerCase()],
    );
    const agent = rows[0];
    if (!agent) {
      await this.hasher.verify(null, dto.password);
      throw invalidCredentials();
    }
    const ok = await this.throttle.attempt('agent', agent.id, () =>
      this.hasher.verify(agent.password_hash, dto.password),
    );
    if (!ok) throw invalidCredentials();
    if (agent.account_status !== 'active') throw accountDisabled();
    const pair = await this.tokens.issuePair('agent', agent.id);
    const keys = await sqlRows<Pick<ApiKeyRow, 'prefix'>>(
      this.ds,
      `SELECT prefix FROM api_keys WHERE agent_id = $1`,
      [agent.id],
    );
    return {
      ...pair,
      agent_id: agent.id,
      email: agent.email,
      organization_name: agent.organization_name,
      api_key: null,
      api_secret: null,
      api_key_prefix: keys[0]?.prefix ?? '',
      balance_cents: (await this.balances.agentFunds(agent.id)).availableCents,
    };
  }

  /** Rotates the refresh token (reuse revokes the family); a suspended or closed agent loses every session. */
  /** Ends the session of the console's refresh token (it is the credential: works after the access token lapsed). */
  async logout(refreshToken: string): Promise<void> {
    await this.tokens.revoke('agent', refreshToken);
  }

  async refresh(refreshToken: string): Promise<TokenPairResponse> {
    const { subjectId, pair } = await this.tokens.rotate('agent', refreshToken);
    const rows = await sqlRows<Pick<AgentRow, 'account_status'>>(
      this.ds,
      `SELECT account_status FROM agents WHERE id = $1`,
      [subjectId],
    );
    if (!rows[0]) throw new ApiError('invalid_token', 'The account of this token no longer exists.');
    if (rows[0].account_status !== 'active') {
      await this.tokens.revokeAllFor('agent', subjectId);
      throw accountDisabled();
    }
    return pair;
  }
}

function invalidCredentials(): ApiError {
  return new ApiError('invalid_credentials', 'The email or password is wrong.');
}

function accountDisabled(): ApiError {
  return new ApiError('account_disabled', 'This account is suspended or closed.');
}
