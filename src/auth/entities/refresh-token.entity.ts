import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { ActorKind } from '../../common/actor';

@Entity('refresh_tokens')
export class RefreshToken {
  /** The token's jti. */
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'family_id' }) familyId: string;
  @Column('text', { name: 'subject_kind' }) subjectKind: ActorKind;
  @Column('uuid', { name: 'subject_id' }) subjectId: string;
  @Column('text', { name: 'token_hash' }) tokenHash: string;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
  @Column('timestamptz', { name: 'used_at', nullable: true }) usedAt: Date | null;
  @Column('timestamptz', { name: 'revoked_at', nullable: true }) revokedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
