import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type SmsPurpose = 'register' | 'login' | 'reset_password';

@Entity('sms_codes')
export class SmsCode {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('text', { name: 'phone_number' }) phoneNumber: string;
  @Column('text') purpose: SmsPurpose;
  @Column('text', { name: 'code_hash' }) codeHash: string;
  @Column('integer') attempts: number;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt: Date;
  @Column('timestamptz', { name: 'consumed_at', nullable: true }) consumedAt: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
}
