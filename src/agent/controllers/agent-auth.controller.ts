import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
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
import { AgentAuthService } from '../services/agent-auth.service';
import { AgentAuthResponse, AgentLoginRequest, AgentRegisterRequest } from '../dtos/agent-auth.dto';

@ApiTags('agent account')
@Public()
@RateLimitByIp()
@ApiBadRequestResponse({ type: ErrorEnvelope, description: 'validation_error (details name the fields)' })
@ApiTooManyRequestsResponse({ type: ErrorEnvelope, description: 'rate_limit_exceeded (per client IP)' })
@Controller(['v1/agent', 'api/v1/agent'])
export class AgentAuthController {
  constructor(private readonly auth: AgentAuthService) {}

  @Post('register')
  @ApiOperation({
    summary: 'Create an agent account; returns tokens and the API key and secret (shown once)',
  })
  @ApiCreatedResponse({ type: AgentAuthResponse })
  @ApiConflictResponse({ type: ErrorEnvelope, description: 'email_taken' })
  register(@Body() dto: AgentRegisterRequest): Promise<AgentAuthResponse> {
    return this.auth.register(dto);
  }

  @Post('login')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Log in with email and password; api_key and api_secret are null' })
  @ApiOkResponse({ type: AgentAuthResponse })
  @ApiUnauthorizedResponse({ type: ErrorEnvelope, description: 'invalid_credentials' })
  @ApiForbiddenResponse({ type: ErrorEnvelope, description: 'account_disabled' })
  @ApiTooManyRequestsResponse({
    type: ErrorEnvelope,
    description: 'account_locked (10 failed logins in 15 minutes; retry_after) or rate_limit_exceeded',
  })
  login(@Body() dto: AgentLoginRequest): Promise<AgentAuthResponse> {
    return this.auth.login(dto);
  }

  @Post('refresh')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Exchange a refresh token for a new pair; reusing a refresh token ends the whole session',
  })
  @ApiOkResponse({ type: TokenPairResponse })
  @ApiUnauthorizedResponse({ type: ErrorEnvelope, description: 'invalid_token' })
  @ApiForbiddenResponse({ type: ErrorEnvelope, description: 'account_disabled' })
  refresh(@Body() dto: RefreshTokenRequest): Promise<TokenPairResponse> {
    return this.auth.refresh(dto.refresh_token);
  }
}
