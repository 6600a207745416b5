import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../auth/auth.decorators';
import { RefreshTokenRequest, TokenPairResponse } from '../../auth/dtos/token-pair.dto';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { RateLimitByIp } from '../../common/rate-limit/rate-limit.guard';
import { AdminAuthService } from '../services/admin-auth.service';
import { AdminAuthResponse, AdminLoginRequest } from '../dtos/admin-auth.dto';

@ApiTags('operator')
@Public()
@RateLimitByIp()
@ApiErrors({ 400: ['validation_error'] })
@Controller('v1/admin')
export class AdminAuthController {
  constructor(private readonly auth: AdminAuthService) {}

  @Post('login')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Operator login; accounts are made with `npm run admin:create`',
    description:
      'Email and password of an operator account; answers the operator JWT pair. Repeated failures lock the account for a while (429 account_locked).',
  })
  @ApiOkResponse({ type: AdminAuthResponse })
  @ApiErrors({ 401: ['invalid_credentials'], 429: ['rate_limit_exceeded', 'account_locked'] })
  login(@Body() dto: AdminLoginRequest): Promise<AdminAuthResponse> {
    return this.auth.login(dto);
  }

  @Post('refresh')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Exchange an operator refresh token for a new pair',
    description: 'Refresh tokens rotate: each works once; reusing one ends the session.',
  })
  @ApiOkResponse({ type: TokenPairResponse })
  @ApiErrors({ 401: ['invalid_token'], 429: ['rate_limit_exceeded'] })
  refresh(@Body() dto: RefreshTokenRequest): Promise<TokenPairResponse> {
    return this.auth.refresh(dto.refresh_token);
  }
}
