import { Module } from '@nestjs/common';
import { AdminAccountController } from './controllers/admin-account.controller';
import { AdminAgentsController } from './controllers/admin-agents.controller';
import { AdminAuditController } from './controllers/admin-audit.controller';
import { AdminAuthController } from './controllers/admin-auth.controller';
import { AdminAccountService } from './services/admin-account.service';
import { AdminAgentsService } from './services/admin-agents.service';
import { AdminAuthService } from './services/admin-auth.service';
import { AuditLogService } from './services/audit-log.service';
import { OperatorSecrets } from './services/operator-secrets';
import { OperatorsService } from './services/operators.service';
import { SecondFactor } from './services/second-factor';
import { TotpEnrolment } from './services/totp-enrolment';

/**
 * The operator console API: sign-in with two-factor, the operator's own account, the team, the audit log, agent
 * accounts. Operator accounts are created from the command line (admin-create.cli.ts).
 */
@Module({
  controllers: [AdminAuthController, AdminAccountController, AdminAuditController, AdminAgentsController],
  providers: [
    AdminAuthService,
    AdminAccountService,
    AdminAgentsService,
    AuditLogService,
    OperatorsService,
    OperatorSecrets,
    SecondFactor,
    TotpEnrolment,
  ],
})
export class AdminModule {}
