import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { AuditLogPageResponse, AuditLogQuery } from '../dtos/audit-log.dto';
import { AuditLogService } from '../services/audit-log.service';

@ApiTags('operator')
@Auth({ actors: ['admin'] })
@ApiErrors({ 400: ['validation_error'] })
@Controller('v1/admin/audit-log')
export class AdminAuditController {
  constructor(private readonly log: AuditLogService) {}

  @Get()
  @ApiOperation({
    summary: 'The operator audit log: who did what to what, before and after, newest first',
    description:
      'Every operator action (sign-ins and failed attempts, sign-outs, two-factor changes, agent changes, credits, ' +
      'withdrawal decisions, bank transfer confirmations, `admin:create` runs), written in the transaction of the ' +
      'action itself and never changed (the database refuses UPDATE and DELETE). Cursor paged; filters combine.',
  })
  @ApiOkResponse({ type: AuditLogPageResponse })
  list(@Query() query: AuditLogQuery): Promise<AuditLogPageResponse> {
    return this.log.list(query);
  }
}
