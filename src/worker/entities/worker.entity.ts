import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { AccountStatus } from '../../auth/actor';

@Entity('workers')
export class Worker {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('text', { name: 'phone_number' }) phoneNumber: string;
  @Column('text', { name: 'password_hash' }) passwordHash: string;
  @Column('text', { name: 'display_name', nullable: true }) displayName: string | null;
  @Column('text', { array: true }) skills: string[];
  @Column('text', { name: 'account_status' }) accountStatus: AccountStatus;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
