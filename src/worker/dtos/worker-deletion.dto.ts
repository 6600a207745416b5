import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class DeleteAccountRequest {
  @ApiProperty({
    minLength: 1,
    maxLength: 128,
    format: 'password',
    description: 'Your login password (the one you sign in with beside your phone number).',
  })
  @IsString()
  @Length(1, 128)
  password: string;
}

export class DeleteAccountResponse {
  @ApiProperty({ enum: ['deleted'] })
  status: 'deleted';

  @ApiProperty({ type: String, format: 'date-time' })
  deleted_at: string;
}
