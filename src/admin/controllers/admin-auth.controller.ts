import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Origin, type RequestOrigin } from '../../audit/operator-context';
import { Public } from '../../auth/auth.decorators';
import { RefreshTokenRequest, TokenPairResponse } from '../../auth/dtos/token-pair.dto';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { RateLimitByIp } from '../../common/rate-limit/rate-limit.guard';
import { AdminAuthService } from '../services/admin-auth.service';
import {
  AdminLoginRequest,
  AdminSecondFactorRequest,
  AdminSignedInResponse,
  AdminSignInChallengeResponse,
  type AdminLoginResponse,
} from '../dtos/admin-auth.dto';

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
    summary: 'Operator sign-in, step one: the password; accounts are made with `npm run admin:create`',
    description:
      'Without two-factor the answer is the session (`status: signed_in`). With two-factor on, or required and not ' +
      'set up yet, it is a 5-minute challenge (`totp_required`, or `totp_enrolment_required` with the secret to ' +
      'add to an authenticator app) for `POST /v1/admin/login/totp`. Sessions last 12 hours from sign-in. Repeated ' +
      'failures, wrong codes included, lock the account for a while (429 account_locked).',
  })
  @ApiExtraModels(AdminSignedInResponse, AdminSignInChallengeResponse)
  @ApiOkResponse({
    schema: {
      oneOf: [
        { $ref: getSchemaPath(AdminSignedInResponse) },
        { $ref: getSchemaPath(AdminSignInChallengeResponse) },
      ],
      discriminator: {
        propertyName: 'status',
        mapping: {
          signed_in: getSchemaPath(AdminSignedInResponse),
          totp_required: getSchemaPath(AdminSignInChallengeResponse),
          totp_enrolment_required: getSchemaPath(AdminSignInChallengeResponse),
        },
      },
    },
  })
  @ApiErrors({ 401: ['invalid_credentials'], 429: ['rate_limit_exceeded', 'account_locked'] })
  login(@Body() dto: AdminLoginRequest, @Origin() origin: RequestOrigin): Promise<AdminLoginResponse> {
    return this.auth.login(dto, origin);
  }

  @Post('login/totp')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Operator sign-in, step two: a code from the authenticator app, or a recovery code',
    description:
      'The challenge of step one with the current 6-digit code (each works once), or one of the recovery codes. ' +
      'After `totp_enrolment_required` the code is the first one of the new secret: it turns two-factor on and the ' +
      'answer carries the ten recovery codes, shown this once. Wrong codes count as failed logins.',
  })
  @ApiOkResponse({ type: AdminSignedInResponse })
  @ApiErrors({
    401: ['invalid_token', 'invalid_totp_code'],
    409: ['invalid_state'],
    429: ['rate_limit_exceeded', 'account_locked'],
  })
  completeSignIn(
    @Body() dto: AdminSecondFactorRequest,
    @Origin() origin: RequestOrigin,
  ): Promise<AdminSignedInResponse> {
    return this.auth.completeSignIn(dto, origin);
  }

  @Post('refresh')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Exchange an operator refresh token for a new pair',
    description:
      'Refresh tokens rotate: each works once; reusing one ends the session. The session keeps its sign-in time: ' +
      'past 12 hours the refresh is 401 session_expired, and no token of a pair outlives the session.',
  })
  @ApiOkResponse({ type: TokenPairResponse })
  @ApiErrors({ 401: ['invalid_token', 'session_expired'], 429: ['rate_limit_exceeded'] })
  refresh(@Body() dto: RefreshTokenRequest): Promise<TokenPairResponse> {
    return this.auth.refresh(dto.refresh_token);
  }

  @Post('logout')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: 'Operator sign-out: end the session of a refresh token',
    description:
      'Revokes the session of the presented refresh token: the token and every later one of the session answer ' +
      '401, and so do the session’s access tokens at once (operator sessions are checked on every request). ' +
      'Needs no access token: holding the refresh token is the proof. A session already ended answers 204 too.',
  })
  @ApiNoContentResponse({ description: 'The session is ended.' })
  @ApiErrors({ 401: ['invalid_token'], 429: ['rate_limit_exceeded'] })
  logout(@Body() dto: RefreshTokenRequest, @Origin() origin: RequestOrigin): Promise<void> {
    return this.auth.logout(dto.refresh_token, origin);
  }
}
