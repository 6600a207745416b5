import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Public } from '../../auth/auth.decorators';
import { ErrorEnvelope } from '../../common/errors/error-envelope.dto';
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

const INVALID_CODE = 'validation_error, or invalid_sms_code (wrong, expired, used, replaced or burnt code)';
const TOO_MANY = 'rate_limit_exceeded (per IP, or the SMS send limits) with retry_after';

/** Public worker account operations: SMS codes, registration, login, token refresh and password reset. */
@ApiTags('worker')
@Public()
@RateLimitByIp()
@ApiTooManyRequestsResponse({ type: ErrorEnvelope, description: TOO_MANY })
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
  @ApiBadRequestResponse({ type: ErrorEnvelope, description: 'validation_error' })
  @ApiConflictResponse({ type: ErrorEnvelope, description: 'phone_taken (purpose register)' })
  @ApiServiceUnavailableResponse({ type: ErrorEnvelope, description: 'service_unavailable: no SMS provider' })
  sendSms(@Query() q: SendSmsQuery): Promise<SendSmsResponse> {
    return this.sms.send(q.phone_number, q.purpose);
  }

  @Post('verify-sms')
  @HttpCode(200)
  @ApiOperation({ summary: 'Check a code without consuming it (a wrong code counts one of its 5 tries)' })
  @ApiOkResponse({ type: VerifySmsResponse })
  @ApiBadRequestResponse({ type: ErrorEnvelope, description: INVALID_CODE })
  verifySms(@Query() q: VerifySmsQuery): Promise<VerifySmsResponse> {
    return this.sms.verify(q.phone_number, q.purpose, q.code);
  }

  @Post('reset-password')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Set a new password with a reset_password code; ends every session of the worker',
  })
  @ApiOkResponse({ type: ResetPasswordResponse })
  @ApiBadRequestResponse({ type: ErrorEnvelope, description: INVALID_CODE })
  resetPassword(@Query() q: ResetPasswordQuery): Promise<ResetPasswordResponse> {
    return this.auth.resetPassword(q);
  }

  @Post('register')
  @ApiOperation({ summary: 'Create a worker account with a register code; answers a token pair' })
  @ApiCreatedResponse({ type: WorkerTokenResponse })
  @ApiBadRequestResponse({ type: ErrorEnvelope, description: INVALID_CODE })
  @ApiConflictResponse({ type: ErrorEnvelope, description: 'phone_taken' })
  register(@Body() dto: WorkerRegister): Promise<WorkerTokenResponse> {
    return this.auth.register(dto);
  }

  @Post('login')
  @HttpCode(200)
  @ApiOperation({ summary: 'Log in with phone number and password; 10 failures in 15 minutes lock for 15' })
  @ApiOkResponse({ type: WorkerTokenResponse })
  @ApiBadRequestResponse({ type: ErrorEnvelope, description: 'validation_error' })
  @ApiUnauthorizedResponse({ type: ErrorEnvelope, description: 'invalid_credentials' })
  @ApiForbiddenResponse({ type: ErrorEnvelope, description: 'account_disabled' })
  @ApiTooManyRequestsResponse({ type: ErrorEnvelope, description: `account_locked, or ${TOO_MANY}` })
  login(@Body() dto: WorkerLogin): Promise<WorkerTokenResponse> {
    return this.auth.login(dto);
  }

  @Post('refresh')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Exchange a refresh token for a new pair; reusing a spent refresh token ends that session',
  })
  @ApiOkResponse({ type: WorkerTokenResponse })
  @ApiBadRequestResponse({ type: ErrorEnvelope, description: 'validation_error' })
  @ApiUnauthorizedResponse({ type: ErrorEnvelope, description: 'invalid_token' })
  @ApiForbiddenResponse({ type: ErrorEnvelope, description: 'account_disabled' })
  refresh(@Body() dto: WorkerRefreshRequest): Promise<WorkerTokenResponse> {
    return this.auth.refresh(dto.refresh_token);
  }
}
