import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { SMS_TEMPLATES, type SmsTemplate } from '../../config/notification-config';

export class SandboxSmsQuery {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 100,
    default: 20,
    description: 'How many, newest first.',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 20;
}

export class SandboxSmsMessage {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '13800138000', description: 'Your own number: only SMS sent to it are listed.' })
  to: string;
  @ApiProperty({
    enum: SMS_TEMPLATES,
    description:
      'verification_code (a code you asked for), offer, or money (news about your pay on an assignment).',
  })
  template: SmsTemplate;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The template parameters a provider gets: `code`, `purpose`, `ttl_minutes` for a code; `amount`, `offer_id`, ' +
      '`link` for an offer.',
    example: { amount: '45.00', offer_id: '3f1c…', link: 'http://localhost:8000/app/offers/3f1c…' },
  })
  params: Record<string, unknown>;
  @ApiProperty({ description: 'The whole text, as a phone would show it.' }) text: string;
  @ApiProperty({ format: 'date-time' }) sent_at: string;
}

export class SandboxSmsList {
  @ApiProperty({ type: [SandboxSmsMessage] }) messages: SandboxSmsMessage[];
}
