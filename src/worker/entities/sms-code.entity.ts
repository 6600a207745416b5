import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const SMS_PURPOSES = ['register', 'login', 'reset_password'] as const;
export type SmsPurpose = (typeof SMS_PURPOSES)[number];

@Entity('sms_codes')
export class SmsCode {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('text', { name: 'phone_number' }) phoneNumber: string;
  @Column('text') purpose: SmsPurpose;
  @Column('text', { name: 'code_hash' }) codeHash: string;
  @Column('integer') attempts: number;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
  @Column('timestamptz', { name: 'consumed_at', nullable: true }) consumedAt: Date | null;
  /** Set when a newer code for the same phone and purpose was sent. */
  @Column('timestamptz', { name: 'superseded_at', nullable: true }) supersededAt: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
}
