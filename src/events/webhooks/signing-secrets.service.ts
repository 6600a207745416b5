import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { SecretBox } from '../../common/secret-box';
import { sqlExec, sqlRows } from '../../database/sql';
import type { AgentCallbackSecretRow } from '../events.rows';
import { newSigningSecret } from './signing-secret';

/** What a sealed secret is bound to: an endpoint's secret cannot be opened as another endpoint's or an agent's. */
const endpointOwner = (id: string) => `webhook_endpoint:${id}`;
const callbackOwner = (agentId: string) => `callback:${agentId}`;

/**
 * The secrets that sign deliveries: one per webhook endpoint (shown once when the endpoint is created), and one per
 * agent for order callbacks (`callback_url` of a payment order), shown once when the agent rotates it. A callback
 * secret is created on first use if the agent never made one; they learn it by rotating.
 */
@Injectable()
export class SigningSecretsService {
  constructor(
    private readonly ds: DataSource,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  sealForEndpoint(endpointId: string, secret: string): string {
    return this.box.seal(secret, endpointOwner(endpointId));
  }

  openForEndpoint(endpointId: string, sealed: string): string {
    return this.box.open(sealed, endpointOwner(endpointId));
  }

  /**
   * The secret that signs a delivery: its endpoint's (sealed, as the claim read it with the delivery), or the
   * agent's callback secret for an order callback.
   */
  async forDelivery(d: {
    endpoint_id: string | null;
    agent_id: string;
    secret_sealed: string | null;
  }): Promise<string> {
    if (d.endpoint_id) {
      if (d.secret_sealed === null) throw new Error(`webhook endpoint ${d.endpoint_id} is missing`);
      return this.openForEndpoint(d.endpoint_id, d.secret_sealed);
    }
    return this.callbackSecret(d.agent_id);
  }

  private async callbackSecret(agentId: string): Promise<string> {
    await sqlExec(
      this.ds,
      `INSERT INTO agent_callback_secrets (agent_id, secret_sealed, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (agent_id) DO NOTHING`,
      [agentId, this.box.seal(newSigningSecret(), callbackOwner(agentId)), this.clock.now()],
    );
    const rows = await sqlRows<Pick<AgentCallbackSecretRow, 'secret_sealed'>>(
      this.ds,
      `SELECT secret_sealed FROM agent_callback_secrets WHERE agent_id = $1`,
      [agentId],
    );
    return this.box.open(rows[0].secret_sealed, callbackOwner(agentId));
  }

  /** Replaces the agent's callback secret; the new one is returned once and never again. */
  async rotateCallbackSecret(agentId: string): Promise<{ secret: string; created_at: Date }> {
    const secret = newSigningSecret();
    const now = this.clock.now();
    await sqlExec(
      this.ds,
      `INSERT INTO agent_callback_secrets (agent_id, secret_sealed, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (agent_id) DO UPDATE SET secret_sealed = EXCLUDED.secret_sealed, created_at = EXCLUDED.created_at`,
      [agentId, this.box.seal(secret, callbackOwner(agentId)), now],
    );
    return { secret, created_at: now };
  }
}
