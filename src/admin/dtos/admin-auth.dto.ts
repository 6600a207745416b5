import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { TokenPairResponse } from '../../auth/dtos/token-pair.dto';
import { NormalizeEmail } from '../../common/http/transforms';

export class AdminLoginRequest {
  @ApiProperty({ format: 'email' })
  @NormalizeEmail()
  @IsString()
  @IsEmail({}, { message: 'must be an email address' })
  @MaxLength(254)
  email: string;

  @ApiProperty({ maxLength: 128 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  password: string;
}

export class AdminAuthResponse extends TokenPairResponse {
  @ApiProperty({ format: 'uuid' })
  admin_id: string;

  @ApiProperty({ format: 'email' })
  email: string;
}
