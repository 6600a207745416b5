import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Public } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { RateLimitByIp } from '../../common/rate-limit/rate-limit.guard';
import {
  ResetPasswordQuery,
  ResetPasswordResponse,
  SendSmsQuery,
  SendSmsResponse,
  VerifySmsQuery,
  VerifySmsResponse,
} from '../dtos/sms.dto';
import {
  WorkerLogin,
  WorkerRefreshRequest,
  WorkerRegister,
  WorkerTokenResponse,
} from '../dtos/worker-auth.dto';
import { WorkerAuthService } from '../services/worker-auth.service';
import { SmsService } from '../sms/sms.service';

/** Public worker account operations: SMS codes, registration, login, token refresh and password reset. */
@ApiTags('worker')
@Public()
@RateLimitByIp()
@ApiErrors({ 429: ['rate_limit_exceeded'] })
@Controller(['v1/worker', 'api/v1/worker'])
export class WorkerAuthController {
  constructor(
    private readonly sms: SmsService,
    private readonly auth: WorkerAuthService,
  ) {}

  @Post('send-sms')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Send a 6-digit verification code (valid 5 minutes; 1 a minute per purpose, 10 a day per number)',
    description:
      'For login and reset_password an unknown number gets the same answer but no SMS (and no sandbox_code). ' +
      'In live mode without an SMS provider this answers 503 service_unavailable.',
  })
  @ApiOkResponse({ type: SendSmsResponse })
  @ApiErrors({
    400: ['validation_error'],
    409: ['phone_taken'],
    502: ['provider_error'],
    503: ['service_unavailable'],
  })
  sendSms(@Query() q: SendSmsQuery): Promise<SendSmsResponse> {
    return this.sms.send(q.phone_number, q.purpose);
  }

  @Post('verify-sms')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Check a code without consuming it (a wrong code counts one of its 5 tries)',
    description:
      'Checks a code without consuming it, so the app can validate before the final step. A wrong code uses one of its 5 tries.',
  })
  @ApiOkResponse({ type: VerifySmsResponse })
  @ApiErrors({ 400: ['validation_error', 'invalid_sms_code'] })
  verifySms(@Query() q: VerifySmsQuery): Promise<VerifySmsResponse> {
    return this.sms.verify(q.phone_number, q.purpose, q.code);
  }

  @Post('reset-password')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Set a new password with a reset_password code; ends every session of the worker',
    description:
      'Consumes a `reset_password` code, sets the new password, ends every refresh session and lifts a lock-out. Access tokens already issued stay valid until they expire.',
  })
  @ApiOkResponse({ type: ResetPasswordResponse })
  @ApiErrors({ 400: ['validation_error', 'invalid_sms_code'] })
  resetPassword(@Query() q: ResetPasswordQuery): Promise<ResetPasswordResponse> {
    return this.auth.resetPassword(q);
  }

  @Post('register')
  @ApiOperation({
    summary: 'Create a worker account with a register code; answers a token pair',
    description:
      'Needs a `register` code from send-sms (checked and consumed here), a password of at least 8 characters and optionally a display name and skills. Answers the JWT pair. 409 phone_taken when the phone number is registered.',
  })
  @ApiCreatedResponse({ type: WorkerTokenResponse })
  @ApiErrors({ 400: ['validation_error', 'invalid_sms_code'], 409: ['phone_taken'] })
  register(@Body() dto: WorkerRegister): Promise<WorkerTokenResponse> {
    return this.auth.register(dto);
  }

  @Post('login')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Log in with phone number and password; 10 failures in 15 minutes lock for 15',
    description:
      'Phone number and password; answers the JWT pair for the app. Repeated failures lock the account for 15 minutes (429 account_locked with Retry-After).',
  })
  @ApiOkResponse({ type: WorkerTokenResponse })
  @ApiErrors({
    400: ['validation_error'],
    401: ['invalid_credentials'],
    403: ['account_disabled'],
    429: ['rate_limit_exceeded', 'account_locked'],
  })
  login(@Body() dto: WorkerLogin): Promise<WorkerTokenResponse> {
    return this.auth.login(dto);
  }

  @Post('refresh')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Exchange a refresh token for a new pair; reusing a spent refresh token ends that session',
    description: 'Refresh tokens rotate: each works once. Presenting a spent one again ends that session.',
  })
  @ApiOkResponse({ type: WorkerTokenResponse })
  @ApiErrors({ 400: ['validation_error'], 401: ['invalid_token'], 403: ['account_disabled'] })
  refresh(@Body() dto: WorkerRefreshRequest): Promise<WorkerTokenResponse> {
    return this.auth.refresh(dto.refresh_token);
  }

  @Post('logout')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Log out: end the session of a refresh token',
    description:
      'Revokes the presented refresh token and every token of its session, so a later refresh with it answers 401 invalid_token. Needs no access token (it may have lapsed): holding the refresh token is the proof. Logging out of a session already ended answers 204 as well. Access tokens already issued stay valid until they expire (15 minutes at most).',
  })
  @ApiNoContentResponse({ description: 'The session is ended.' })
  @ApiErrors({ 400: ['validation_error'], 401: ['invalid_token'] })
  logout(@Body() dto: WorkerRefreshRequest): Promise<void> {
    return this.auth.logout(dto.refresh_token);
  }
}
