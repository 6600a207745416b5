import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { OAuthConsentController } from './controllers/oauth-consent.controller';
import { OAuthMetadataController } from './controllers/oauth-metadata.controller';
import { OAuthProtocolController } from './controllers/oauth-protocol.controller';
import { Authorizations } from './services/authorizations.service';
import { ClientMetadataDocuments } from './services/client-metadata-documents';
import { OAuthClients } from './services/oauth-clients.service';
import { OAuthGrants } from './services/oauth-grants.service';
import { OAuthTokens } from './services/oauth-tokens.service';

/**
 * The OAuth 2.1 authorization server for /mcp (product-decisions §21; docs/mcp.md "Signing in with OAuth"): discovery,
 * registration and Client ID Metadata Documents, authorization with the console's consent, tokens, revocation, and
 * the grants an agent's people manage. The tokens themselves are signed and checked by GrantTokens (src/auth), where
 * the global guard reads them.
 */
@Module({
  imports: [EventsModule],
  controllers: [OAuthMetadataController, OAuthProtocolController, OAuthConsentController],
  providers: [Authorizations, ClientMetadataDocuments, OAuthClients, OAuthGrants, OAuthTokens],
})
export class OAuthModule {}
