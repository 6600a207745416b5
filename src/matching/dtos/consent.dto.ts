import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

/** What workers are asked to consent to separately (product-decisions §19). */
export const CONSENT_KINDS = ['precise_location'] as const;
export type ConsentKind = (typeof CONSENT_KINDS)[number];

export class ConsentText {
  @ApiProperty({ example: 'Your precise location' })
  en: string;

  @ApiProperty({ example: '您的精确位置' })
  zh: string;
}

export class ConsentView {
  @ApiProperty({ enum: CONSENT_KINDS })
  kind: ConsentKind;

  @ApiProperty({
    type: 'integer',
    example: 1,
    description: 'The version asked now; a higher one asks again.',
  })
  version: number;

  @ApiProperty({ type: ConsentText, description: 'The heading, in English and Chinese.' })
  title: ConsentText;

  @ApiProperty({ type: ConsentText, description: 'What you agree to, in English and Chinese.' })
  text: ConsentText;

  @ApiProperty({ description: 'You have given consent to the current version and not withdrawn it.' })
  given: boolean;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The version of your live consent (lower than `version` when a newer text asks again).',
  })
  given_version: number | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  given_at: string | null;
}

export class ConsentListResponse {
  @ApiProperty({ type: [ConsentView] })
  consents: ConsentView[];
}

export class GiveConsentRequest {
  @ApiProperty({ enum: CONSENT_KINDS })
  @IsIn(CONSENT_KINDS)
  kind: ConsentKind;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description:
      'The version you were shown. Without it, the current one. Any other than the current answers 400 validation_error (a newer text was published since: read it and consent to it).',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  version?: number;
}

export class ConsentKindParam {
  @ApiProperty({ enum: CONSENT_KINDS })
  @IsIn(CONSENT_KINDS)
  kind: ConsentKind;
}
