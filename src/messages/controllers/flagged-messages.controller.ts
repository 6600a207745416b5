import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../auth/auth.decorators';
import { FlaggedMessagesResponse } from '../dtos/messages.dto';
import { FlaggedMessagesService } from '../services/flagged-messages.service';

@ApiTags('operator')
@Auth({ actors: ['admin'] })
@Controller('v1/admin/flagged-messages')
export class FlaggedMessagesController {
  constructor(private readonly flagged: FlaggedMessagesService) {}

  @Get()
  @ApiOperation({
    summary: 'Messages that hold a phone number or a WeChat ID',
    description:
      'Messages between agents and workers that seem to hold contact details (taking work off the platform), newest first. They were delivered: flagged, never blocked. Operator JWT.',
  })
  @ApiOkResponse({ type: FlaggedMessagesResponse })
  list(): Promise<FlaggedMessagesResponse> {
    return this.flagged.list();
  }
}
