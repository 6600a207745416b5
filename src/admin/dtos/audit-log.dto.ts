import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import {
  AUDIT_TARGET_TYPES,
  OPERATOR_ACTIONS,
  type AuditSource,
  type AuditTargetType,
  type OperatorAction,
} from '../../audit/operator-audit';
import { OptionalInt } from '../../common/http/validators';
import { NextCursor } from '../../common/http/cursor-page';

export class AuditLogQuery {
  @OptionalInt({ min: 1, max: 100, default: 50 })
  limit?: number;

  @ApiPropertyOptional({ description: 'The `id` of the last entry of the previous page (`next_cursor`).' })
  @IsOptional()
  @Matches(/^[1-9][0-9]{0,17}$/, { message: 'must be an entry id from next_cursor' })
  starting_after?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only what this operator did.' })
  @IsOptional()
  @IsUUID()
  operator_id?: string;

  @ApiPropertyOptional({ enum: OPERATOR_ACTIONS, description: 'Only this kind of action.' })
  @IsOptional()
  @IsIn(OPERATOR_ACTIONS)
  action?: OperatorAction;

  @ApiPropertyOptional({ enum: AUDIT_TARGET_TYPES, description: 'Only actions on this kind of target.' })
  @IsOptional()
  @IsIn(AUDIT_TARGET_TYPES)
  target_type?: AuditTargetType;

  @ApiPropertyOptional({ maxLength: 100, description: 'Only actions on this target (with `target_type`).' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  target_id?: string;
}

export class AuditOperatorView {
  @ApiProperty({ format: 'uuid' }) admin_id: string;
  @ApiProperty({ format: 'email' }) email: string;
}

export class AuditLogEntryResponse {
  @ApiProperty({ description: 'Increasing with time; the cursor.' }) id: string;
  @ApiProperty({ type: String, format: 'date-time' }) occurred_at: Date;
  @ApiProperty({
    enum: ['api', 'cli'],
    description:
      '`api`: an operator’s request; `cli`: `npm run admin:create` on the server (no operator named).',
  })
  source: AuditSource;
  @ApiProperty({
    type: AuditOperatorView,
    nullable: true,
    description: 'Who acted (for a failed sign-in: the account tried); null from the command line.',
  })
  operator: AuditOperatorView | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The session that acted: its `operator.signed_in` entry has the same value.',
  })
  session_id: string | null;
  @ApiProperty({ enum: OPERATOR_ACTIONS }) action: OperatorAction;
  @ApiProperty({ enum: AUDIT_TARGET_TYPES }) target_type: AuditTargetType;
  @ApiProperty() target_id: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The target’s fields the action changed, as they were.',
  })
  before: Record<string, unknown> | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The same fields after the action, and what was given with it (a reason, an amount).',
  })
  after: Record<string, unknown> | null;
  @ApiProperty({ type: String, nullable: true, description: 'The `X-Request-ID` of the request.' })
  request_id: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The client address, on sign-in entries only.' })
  ip: string | null;
}

export class AuditLogPageResponse {
  @ApiProperty({ type: AuditLogEntryResponse, isArray: true, description: 'Newest first.' })
  data: AuditLogEntryResponse[];
  @ApiProperty() has_more: boolean;
  @NextCursor()
  next_cursor: string | null;
}
