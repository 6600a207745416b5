import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Public } from '../../auth/auth.decorators';
import { RefreshTokenRequest, TokenPairResponse } from '../../auth/dtos/token-pair.dto';
import { ErrorEnvelope } from '../../common/errors/error-envelope.dto';
import { RateLimitByIp } from '../../common/rate-limit/rate-limit.guard';
import { AdminAuthService } from '../services/admin-auth.service';
import { AdminAuthResponse, AdminLoginRequest } from '../dtos/admin-auth.dto';

@ApiTags('operator')
@Public()
@RateLimitByIp()
@ApiBadRequestResponse({ type: ErrorEnvelope, description: 'validation_error' })
@Controller('v1/admin')
export class AdminAuthController {
  constructor(private readonly auth: AdminAuthService) {}

  @Post('login')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Operator login; accounts are made with `npm run admin:create`' })
  @ApiOkResponse({ type: AdminAuthResponse })
  @ApiUnauthorizedResponse({ type: ErrorEnvelope, description: 'invalid_credentials' })
  @ApiTooManyRequestsResponse({ type: ErrorEnvelope, description: 'account_locked or rate_limit_exceeded' })
  login(@Body() dto: AdminLoginRequest): Promise<AdminAuthResponse> {
    return this.auth.login(dto);
  }

  @Post('refresh')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Exchange an operator refresh token for a new pair' })
  @ApiOkResponse({ type: TokenPairResponse })
  @ApiUnauthorizedResponse({ type: ErrorEnvelope, description: 'invalid_token' })
  @ApiTooManyRequestsResponse({ type: ErrorEnvelope, description: 'rate_limit_exceeded' })
  refresh(@Body() dto: RefreshTokenRequest): Promise<TokenPairResponse> {
    return this.auth.refresh(dto.refresh_token);
  }
}
