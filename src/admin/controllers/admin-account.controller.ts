import { Body, Controller, Get, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { AuditActor } from '../../audit/operator-audit';
import { OperatorRequest } from '../../audit/operator-context';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import type { AdminActor } from '../../common/actor';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { UuidParam } from '../../common/http/uuid-param';
import {
  AdminMeResponse,
  OperatorListResponse,
  OperatorResponse,
  RecoveryCodesResponse,
  TotpCodeRequest,
  TotpSetupResponse,
} from '../dtos/admin-account.dto';
import { AdminAccountService } from '../services/admin-account.service';
import { OperatorsService } from '../services/operators.service';

@ApiTags('operator')
@Auth({ actors: ['admin'] })
@ApiErrors({ 400: ['validation_error'] })
@Controller('v1/admin')
export class AdminAccountController {
  constructor(
    private readonly account: AdminAccountService,
    private readonly operators: OperatorsService,
  ) {}

  @Get('me')
  @ApiOperation({
    summary: 'The signed-in operator: two-factor state and when this session ends',
    description:
      'The account, whether two-factor is on or required, recovery codes left, and the session’s end.',
  })
  @ApiOkResponse({ type: AdminMeResponse })
  me(@CurrentActor() actor: AdminActor): Promise<AdminMeResponse> {
    return this.account.me(actor);
  }

  @Post('me/totp')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Start turning two-factor sign-in on: a new secret to add to an authenticator app',
    description:
      'Answers a new secret (and its otpauth URI for a QR code), pending until `POST /v1/admin/me/totp/confirm` ' +
      'with its first code; starting again replaces it. 409 when two-factor is on already.',
  })
  @ApiOkResponse({ type: TotpSetupResponse })
  @ApiErrors({ 409: ['invalid_state'] })
  startTotp(@CurrentActor() actor: AdminActor): Promise<TotpSetupResponse> {
    return this.account.startEnrolment(actor);
  }

  @Post('me/totp/confirm')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Turn two-factor sign-in on with the first code; answers the recovery codes once',
    description:
      'The first code of the pending secret turns two-factor on; the ten recovery codes are in the answer, never ' +
      'shown again. The operator’s other sessions end (they were opened with the password alone). Wrong codes ' +
      'count as failed logins.',
  })
  @ApiOkResponse({ type: RecoveryCodesResponse })
  @ApiErrors({ 401: ['invalid_totp_code'], 409: ['invalid_state'], 429: ['account_locked'] })
  confirmTotp(
    @OperatorRequest() who: AuditActor,
    @CurrentActor() actor: AdminActor,
    @Body() dto: TotpCodeRequest,
  ): Promise<RecoveryCodesResponse> {
    return this.account.confirmEnrolment(who, actor, dto.code);
  }

  @Post('me/recovery-codes')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Ten new recovery codes for a current code; the earlier ones stop working',
    description:
      'Needs two-factor on and the current code from the app (wrong codes count as failed logins). The new codes ' +
      'are in the answer, never shown again.',
  })
  @ApiOkResponse({ type: RecoveryCodesResponse })
  @ApiErrors({ 401: ['invalid_totp_code'], 409: ['invalid_state'], 429: ['account_locked'] })
  regenerateRecoveryCodes(
    @OperatorRequest() who: AuditActor,
    @CurrentActor() actor: AdminActor,
    @Body() dto: TotpCodeRequest,
  ): Promise<RecoveryCodesResponse> {
    return this.account.regenerateRecoveryCodes(who, actor, dto.code);
  }

  @Get('operators')
  @ApiOperation({
    summary: 'The operator accounts, with their two-factor state',
    description: 'Every operator, by email. Operators are created on the server with `npm run admin:create`.',
  })
  @ApiOkResponse({ type: OperatorListResponse })
  list(): Promise<OperatorListResponse> {
    return this.operators.list();
  }

  @Post('operators/:id/totp/reset')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: "Reset another operator's two-factor sign-in (a lost authenticator and recovery codes)",
    description:
      'Removes the operator’s secret and recovery codes and ends their sessions; if two-factor is required for ' +
      'them they set it up again at their next sign-in. Only another operator who has two-factor on may do it ' +
      '(403 two_factor_required; for one’s own account 403 forbidden). Recorded in the audit log.',
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: OperatorResponse })
  @ApiErrors({ 403: ['two_factor_required'], 404: ['not_found'], 409: ['invalid_state'] })
  resetTotp(
    @OperatorRequest() who: AuditActor,
    @CurrentActor() actor: AdminActor,
    @UuidParam('id') id: string,
  ): Promise<OperatorResponse> {
    return this.operators.resetTotp(who, actor, id);
  }
}
