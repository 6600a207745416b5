import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { bigintNumber } from '../../database/transformers';

@Entity('api_keys')
export class ApiKey {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid', { name: 'agent_id' }) agentId: string;
  /** SHA-256 of the full key; the key itself is shown once and never stored. */
  @Column('text', { name: 'key_hash' }) keyHash: string;
  /** SHA-256 of the API secret required as X-API-Secret on the reference payment endpoints. */
  @Column('text', { name: 'secret_hash' }) secretHash: string;
  @Column('text') prefix: string;
  @Column('text') name: string;
  @Column('text', { array: true }) permissions: string[];
  @Column('boolean', { name: 'is_active' }) isActive: boolean;
  @Column('bigint', { name: 'usage_count', transformer: bigintNumber }) usageCount: number;
  @Column('timestamptz', { name: 'last_used_at', nullable: true }) lastUsedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
