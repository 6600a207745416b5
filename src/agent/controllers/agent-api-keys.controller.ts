import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Patch, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
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
  @ApiOperation({
    summary: "The agent's API key (a list of one; prefix only)",
    description:
      'Each agent has exactly one key; the list holds it with its prefix, permissions, status and usage, never the full key or secret. Needs the console session (JWT).',
  })
  @ApiOkResponse({ type: ApiKeyResponse, isArray: true })
  list(@CurrentActor() actor: AgentActor): Promise<ApiKeyResponse[]> {
    return this.keys.list(actor.id);
  }

  @Post()
  @ApiOperation({
    summary: 'Rotate the API key: a new key and secret (shown once) replace the old ones, which stop working',
    description:
      'The key id stays the same; the new key value and API secret are answered once and the old ones stop working at once. Omitting `permissions` grants every permission; pass a list to narrow the new key. Never stored for an Idempotency-Key replay (a credential shown once), so a repeat of the same key is 409. Needs the JWT.',
  })
  @ApiCreatedResponse({ type: CreateApiKeyResponse })
  @ApiErrors({ 400: ['validation_error'] })
  rotate(@CurrentActor() actor: AgentActor, @Body() dto: CreateApiKeyRequest): Promise<CreateApiKeyResponse> {
    return this.keys.rotate(actor.id, dto);
  }

  @Patch(':key_id')
  @ApiOperation({
    summary: 'Enable or disable the key, rename it, or change its permissions',
    description:
      'Only the fields sent change: `is_active`, `name`, `permissions` (for example add `webhook:manage` so a backend can manage its webhook endpoints). Needs the JWT.',
  })
  @ApiParam({ name: 'key_id', format: 'uuid' })
  @ApiOkResponse({ type: ApiKeyResponse })
  @ApiErrors({ 400: ['validation_error'], 404: ['not_found'] })
  update(
    @CurrentActor() actor: AgentActor,
    @UuidParam('key_id') keyId: string,
    @Body() dto: UpdateApiKeyRequest,
  ): Promise<ApiKeyResponse> {
    return this.keys.update(actor.id, keyId, dto);
  }

  @Delete(':key_id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: 'Disable the key (it can be enabled again with PATCH or replaced with POST)',
    description:
      'A disabled key answers 401 invalid_api_key until it is enabled again with PATCH or replaced by rotating. Needs the JWT.',
  })
  @ApiParam({ name: 'key_id', format: 'uuid' })
  @ApiNoContentResponse({ description: 'Disabled.' })
  @ApiErrors({ 400: ['validation_error'], 404: ['not_found'] })
  disable(@CurrentActor() actor: AgentActor, @UuidParam('key_id') keyId: string): Promise<void> {
    return this.keys.disable(actor.id, keyId);
  }
}
