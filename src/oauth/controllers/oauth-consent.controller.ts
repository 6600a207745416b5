import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { UuidParam } from '../../common/http/uuid-param';
import {
  ConsentDecisionRequest,
  ConsentDecisionResponse,
  ConsentRequestQuery,
  ConsentRequestView,
  OAuthGrantResponse,
} from '../dtos/consent.dto';
import { Authorizations } from '../services/authorizations.service';
import { OAuthGrants } from '../services/oauth-grants.service';

/**
 * The console's side of OAuth (product-decisions §21): the consent page reads and answers an authorization request,
 * and the agent's people list and revoke the grants they made. The console session (JWT) only: an API key, or an
 * OAuth grant's own token, cannot approve or revoke grants.
 */
@ApiTags('oauth')
@Auth({ actors: ['agent'], schemes: ['jwt'] })
@Controller(['v1/oauth', 'api/v1/oauth'])
export class OAuthConsentController {
  constructor(
    private readonly authorizations: Authorizations,
    private readonly grants: OAuthGrants,
  ) {}

  @Get('consent')
  @ApiOperation({
    summary: 'An authorization request waiting for consent',
    description:
      'What the consent page shows: the client (its name, unverified, and the host to recognise), where the browser goes back to, and the permissions asked for.',
  })
  @ApiOkResponse({ type: ConsentRequestView })
  @ApiErrors({ 400: ['validation_error'], 404: ['oauth_request_not_found'] })
  view(@Query() query: ConsentRequestQuery): Promise<ConsentRequestView> {
    return this.authorizations.view(query.request);
  }

  @Post('consent')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Approve or decline an authorization request',
    description:
      "Answers once. An approval grants the chosen permissions (the API keys' names) with optional spend caps and an approval ceiling, and answers the client's redirect URI with a one-time code; a refusal answers it with access_denied. The console then sends the browser to `redirect_to`.",
  })
  @ApiOkResponse({ type: ConsentDecisionResponse })
  @ApiErrors({ 400: ['validation_error'], 404: ['oauth_request_not_found'] })
  decide(
    @CurrentActor() actor: AgentActor,
    @Body() dto: ConsentDecisionRequest,
  ): Promise<ConsentDecisionResponse> {
    return this.authorizations.decide(actor.id, dto);
  }

  @Get('grants')
  @ApiOperation({
    summary: 'The OAuth grants in force',
    description: 'Apps signed in to /mcp with OAuth, newest first.',
  })
  @ApiOkResponse({ type: OAuthGrantResponse, isArray: true })
  list(@CurrentActor() actor: AgentActor): Promise<OAuthGrantResponse[]> {
    return this.grants.list(actor.id);
  }

  @Delete('grants/:grant_id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: 'Revoke an OAuth grant',
    description: 'Its access and refresh tokens are refused from now on, on every instance.',
  })
  @ApiParam({ name: 'grant_id', format: 'uuid' })
  @ApiNoContentResponse()
  @ApiErrors({ 400: ['validation_error'], 404: ['oauth_grant_not_found'] })
  revoke(@CurrentActor() actor: AgentActor, @UuidParam('grant_id') grantId: string): Promise<void> {
    return this.grants.revoke(actor.id, grantId);
  }
}
