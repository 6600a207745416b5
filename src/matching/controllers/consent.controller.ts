import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { ConsentKindParam, ConsentListResponse, ConsentView, GiveConsentRequest } from '../dtos/consent.dto';
import { WorkerConsents } from '../services/worker-consents';

/** Separate, versioned consent to the use of precise location (PIPL; product-decisions §19). */
@ApiTags('worker')
@Auth({ actors: ['worker'] })
@Controller(['v1/worker/consents', 'api/v1/worker/consents'])
export class ConsentController {
  constructor(private readonly consents: WorkerConsents) {}

  @Get()
  @ApiOperation({
    summary: 'What you are asked to consent to, its text in English and Chinese, and whether you have',
    description:
      'Each consent with its current version and text. `given` is true only for a live consent to the current version: when a newer text is published, you are asked again.',
  })
  @ApiOkResponse({ type: ConsentListResponse })
  list(@CurrentActor() actor: WorkerActor): Promise<ConsentListResponse> {
    return this.consents.list(actor);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Give consent (precise_location: needed to go on call and report your position)',
    description:
      'Consents to the current version of the text (or to `version`, which must be the current one). Giving it again changes nothing.',
  })
  @ApiOkResponse({ type: ConsentView })
  @ApiErrors({ 400: ['validation_error'] })
  give(@CurrentActor() actor: WorkerActor, @Body() dto: GiveConsentRequest): Promise<ConsentView> {
    return this.consents.give(actor, dto);
  }

  @Delete(':kind')
  @ApiOperation({
    summary: 'Withdraw consent: you go off call at once and your last position is erased',
    description:
      'Withdrawing precise_location takes you off call, erases your last position and the positions you reported while on call. Going on call again answers 403 consent_required until you consent again. Withdrawing what you have not given answers the same.',
  })
  @ApiOkResponse({ type: ConsentView })
  @ApiErrors({ 400: ['validation_error'] })
  withdraw(@CurrentActor() actor: WorkerActor, @Param() p: ConsentKindParam): Promise<ConsentView> {
    return this.consents.withdraw(actor, p.kind);
  }
}
