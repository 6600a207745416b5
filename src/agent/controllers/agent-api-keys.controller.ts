import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Patch, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ErrorEnvelope } from '../../common/errors/error-envelope.dto';
import { UuidParam } from '../../common/http/uuid-param';
import { ApiKeysService } from '../services/api-keys.service';
import {
  ApiKeyResponse,
  CreateApiKeyRequest,
  CreateApiKeyResponse,
  UpdateApiKeyRequest,
} from '../dtos/api-key.dto';

/** API-key management needs the agent's login session (JWT): a leaked key cannot mint or re-enable keys. */
@ApiTags('agent api keys')
@Auth({ actors: ['agent'], schemes: ['jwt'] })
@Controller(['v1/agent/api-keys', 'api/v1/agent/api-keys'])
export class AgentApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @ApiOperation({ summary: "The agent's API key (a list of one; prefix only)" })
  @ApiOkResponse({ type: ApiKeyResponse, isArray: true })
  list(@CurrentActor() actor: AgentActor): Promise<ApiKeyResponse[]> {
    return this.keys.list(actor.id);
  }

  @Post()
  @ApiOperation({
    summary: 'Rotate the API key: a new key and secret (shown once) replace the old ones, which stop working',
  })
  @ApiCreatedResponse({ type: CreateApiKeyResponse })
  @ApiBadRequestResponse({ type: ErrorEnvelope, description: 'validation_error' })
  rotate(@CurrentActor() actor: AgentActor, @Body() dto: CreateApiKeyRequest): Promise<CreateApiKeyResponse> {
    return this.keys.rotate(actor.id, dto);
  }

  @Patch(':key_id')
  @ApiOperation({ summary: 'Enable or disable the key, rename it, or change its permissions' })
  @ApiParam({ name: 'key_id', format: 'uuid' })
  @ApiOkResponse({ type: ApiKeyResponse })
  @ApiBadRequestResponse({ type: ErrorEnvelope, description: 'validation_error' })
  @ApiNotFoundResponse({ type: ErrorEnvelope, description: "not_found (unknown or another agent's key)" })
  update(
    @CurrentActor() actor: AgentActor,
    @UuidParam('key_id') keyId: string,
    @Body() dto: UpdateApiKeyRequest,
  ): Promise<ApiKeyResponse> {
    return this.keys.update(actor.id, keyId, dto);
  }

  @Delete(':key_id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Disable the key (it can be enabled again with PATCH or replaced with POST)' })
  @ApiParam({ name: 'key_id', format: 'uuid' })
  @ApiNoContentResponse({ description: 'Disabled.' })
  @ApiBadRequestResponse({ type: ErrorEnvelope, description: 'validation_error' })
  @ApiNotFoundResponse({ type: ErrorEnvelope, description: "not_found (unknown or another agent's key)" })
  disable(@CurrentActor() actor: AgentActor, @UuidParam('key_id') keyId: string): Promise<void> {
    return this.keys.disable(actor.id, keyId);
  }
}
