import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type AgentTier = 'standard' | 'verified' | 'enterprise';
export type AccountStatus = 'active' | 'suspended' | 'closed';

@Entity('agents')
export class Agent {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('text') email: string;
  @Column('text', { name: 'password_hash' }) passwordHash: string;
  @Column('text', { name: 'organization_name', nullable: true }) organizationName: string | null;
  @Column('text', { name: 'company_name', nullable: true }) companyName: string | null;
  @Column('text', { name: 'account_status' }) accountStatus: AccountStatus;
  @Column('text') tier: AgentTier;
  @Column('integer', { name: 'rate_limit_per_minute' }) rateLimitPerMinute: number;
  @Column('integer', { name: 'rate_limit_per_day' }) rateLimitPerDay: number;
  @Column('integer', { name: 'fee_bps', nullable: true }) feeBps: number | null;
  @Column('integer', { name: 'max_concurrent_tasks' }) maxConcurrentTasks: number;
  @Column('timestamptz', { name: 'last_used_at', nullable: true }) lastUsedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
