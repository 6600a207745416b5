import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { ONLINE_LAPSE_MINUTES } from '../offer-policy';

export class UpdateAvailabilityRequest {
  @ApiProperty({
    description: `true: ready for offers near the position for the next ${ONLINE_LAPSE_MINUTES} minutes (report again to stay online).`,
  })
  @IsBoolean()
  online: boolean;

  @ApiPropertyOptional({
    minimum: -90,
    maximum: 90,
    description: 'Required when online is true; with longitude.',
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
}

export class AvailabilityResponse {
  @ApiProperty({ description: 'Whether offers can reach you now.' }) online: boolean;
  @ApiProperty({ type: Number, nullable: true, description: 'Last known position.' }) latitude: number | null;
  @ApiProperty({ type: Number, nullable: true }) longitude: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) position_at: string | null;
  @ApiProperty({ format: 'date-time' }) last_seen_at: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: `When you go offline unless you report again (last_seen_at + ${ONLINE_LAPSE_MINUTES} minutes); null when offline.`,
  })
  online_until: string | null;
}
