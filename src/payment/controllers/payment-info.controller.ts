import { Controller, Get } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../auth/auth.decorators';
import { PaymentHealthResponse, ProviderHealthView, ProvidersResponse } from '../dtos/payment-health.dto';
import { PaymentHealthService } from '../services/payment-health.service';

/** Public payment information: the enabled providers and whether they answer. */
@ApiTags('payments')
@ApiExtraModels(ProviderHealthView)
@Controller('v1/payment')
export class PaymentInfoController {
  constructor(private readonly health: PaymentHealthService) {}

  @Get('providers')
  @Public()
  @ApiOperation({
    summary: 'Enabled payment providers and the default one',
    description: 'Public. The enabled providers with their channels, and the default one.',
  })
  @ApiOkResponse({ type: ProvidersResponse })
  providers(): ProvidersResponse {
    return this.health.list();
  }

  @Get('health')
  @Public()
  @ApiOperation({
    summary: 'Whether each provider answers a signed probe (cached for 15 s)',
    description:
      'Public. Whether each enabled provider answered a signed probe recently (cached for 15 seconds).',
  })
  @ApiOkResponse({ type: PaymentHealthResponse })
  status(): Promise<PaymentHealthResponse> {
    return this.health.publicHealth();
  }
}
