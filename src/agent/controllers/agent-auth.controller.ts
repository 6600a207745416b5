import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Public } from '../../auth/auth.decorators';
import { RefreshTokenRequest, TokenPairResponse } from '../../auth/dtos/token-pair.dto';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { RateLimitByIp } from '../../common/rate-limit/rate-limit.guard';
import { AgentAuthService } from '../services/agent-auth.service';
import { AgentAuthResponse, AgentLoginRequest, AgentRegisterRequest } from '../dtos/agent-auth.dto';

@ApiTags('agent account')
@Public()
@RateLimitByIp()
@ApiErrors({ 400: ['validation_error'], 429: ['rate_limit_exceeded'] })
@Controller(['v1/agent', 'api/v1/agent'])
export class AgentAuthController {
  constructor(private readonly auth: AgentAuthService) {}

  @Post('register')
  @ApiOperation({
    summary: 'Create an agent account; returns tokens and the API key and secret (shown once)',
    description:
      'Creates the account and its one API key. The answer carries the JWT pair and, once only, the full `api_key` and `api_secret`: store them now. 409 email_taken when the email is registered.',
  })
  @ApiCreatedResponse({ type: AgentAuthResponse })
  @ApiErrors({ 409: ['email_taken'] })
  register(@Body() dto: AgentRegisterRequest): Promise<AgentAuthResponse> {
    return this.auth.register(dto);
  }

  @Post('login')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Log in with email and password; api_key and api_secret are null',
    description:
      'Answers an access token (15 minutes) and a refresh token (7 days) for the console. The API key is shown only at registration and rotation, so `api_key` and `api_secret` are null here. Repeated failures lock the account for a while (429 account_locked with Retry-After).',
  })
  @ApiOkResponse({ type: AgentAuthResponse })
  @ApiErrors({
    401: ['invalid_credentials'],
    403: ['account_disabled'],
    429: ['rate_limit_exceeded', 'account_locked'],
  })
  login(@Body() dto: AgentLoginRequest): Promise<AgentAuthResponse> {
    return this.auth.login(dto);
  }

  @Post('refresh')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Exchange a refresh token for a new pair; reusing a refresh token ends the whole session',
    description:
      'Refresh tokens rotate: each works once and answers a new pair. Presenting a spent one again is treated as theft and ends the whole session (every token of it).',
  })
  @ApiOkResponse({ type: TokenPairResponse })
  @ApiErrors({ 401: ['invalid_token'], 403: ['account_disabled'] })
  refresh(@Body() dto: RefreshTokenRequest): Promise<TokenPairResponse> {
    return this.auth.refresh(dto.refresh_token);
  }

  @Post('logout')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: 'Log out: end the session of a refresh token',
    description:
      'Revokes the presented refresh token and every token of its session, so a later refresh with it answers 401 invalid_token. Needs no access token (it may have lapsed): holding the refresh token is the proof. Logging out of a session already ended answers 204 as well. Access tokens already issued stay valid until they expire; API keys are not affected.',
  })
  @ApiNoContentResponse({ description: 'The session is ended.' })
  @ApiErrors({ 401: ['invalid_token'] })
  logout(@Body() dto: RefreshTokenRequest): Promise<void> {
    return this.auth.logout(dto.refresh_token);
  }
}
