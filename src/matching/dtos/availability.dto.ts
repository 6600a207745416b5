import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { POSITION_FRESH_MINUTES } from '../offer-policy';

export class UpdateAvailabilityRequest {
  @ApiProperty({
    description:
      'true: on call, ready for offers near the position, until you send false or for ON_CALL_HOURS (8 by default) after this report; each report with true renews it. false: off call at once.',
  })
  @IsBoolean()
  online: boolean;

  @ApiPropertyOptional({
    minimum: -90,
    maximum: 90,
    description: `Required when online is true; with longitude. Offers match on a position at most ${POSITION_FRESH_MINUTES} minutes old: report it while the app is open (the worker app does every minute).`,
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-90)
  @Max(90)
  latitude?: number;

  @ApiPropertyOptional({
    minimum: -180,
    maximum: 180,
    description: 'Required when online is true; with latitude.',
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-180)
  @Max(180)
  longitude?: number;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 100000,
    example: 15,
    description:
      'The accuracy radius the device reported for the position, in metres. Optional; with it a far jump between two positions is judged fairly (impossible travel, docs/proof-review.md).',
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(100000)
  accuracy_m?: number;
}

/** The server's view of a worker's presence: what the app shows, never a guess of its own. */
export class AvailabilityResponse {
  @ApiProperty({ description: 'Whether you are on call now (online: true reported and not yet ended).' })
  online: boolean;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'When being on call ends unless you report online: true again (ON_CALL_HOURS after the last such report); null when off call.',
  })
  on_call_until: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    deprecated: true,
    description: 'The same as on_call_until (its earlier name).',
  })
  online_until: string | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Last known position (yours only).' })
  latitude: number | null;

  @ApiProperty({ type: Number, nullable: true })
  longitude: number | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it was reported.' })
  position_at: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Seconds since position_at; null without one.',
  })
  position_age_seconds: number | null;

  @ApiProperty({
    description: `Whether the position is fresh enough to match on (at most ${POSITION_FRESH_MINUTES} minutes old). On call with a stale position, you get no offers until you report again.`,
  })
  position_fresh: boolean;

  @ApiProperty({
    description: 'Whether offers can reach you now: on call with a fresh position.',
  })
  matching: boolean;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Your last report; null if you never reported.',
  })
  last_seen_at: string | null;
}
