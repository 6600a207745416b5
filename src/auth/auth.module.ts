import { Global, Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { ApiSecretVerifier } from './api-secret';
import { ApiKeyStrategy } from './api-key.strategy';
import { AuthCache } from './auth-cache';
import { Authenticator } from './authenticator';
import { GrantTokens } from './grant-tokens';
import { GrantTokenStrategy } from './grant-token.strategy';
import { JwtStrategy } from './jwt.strategy';
import { LoginThrottle } from './login-throttle';
import { PasswordHasher } from './passwords';
import { SignInChallenges } from './sign-in-challenges';
import { Tokens } from './tokens';
import { UsageTracker } from './usage-tracker';

/** The module's parts: every one is also exported, for the guards and services of the other modules. */
const PARTS = [
  AuthCache,
  Authenticator,
  ApiKeyStrategy,
  JwtStrategy,
  GrantTokens,
  GrantTokenStrategy,
  PasswordHasher,
  Tokens,
  UsageTracker,
  LoginThrottle,
  ApiSecretVerifier,
  SignInChallenges,
];

/**
 * Credentials for every kind of principal: passwords, JWT pairs, API-key resolution (cached, see AuthCache), lock-out,
 * usage counts. Requests authenticate through two passport strategies, tried in order: API keys (ApiKeyStrategy),
 * then access JWTs (JwtStrategy, passport-jwt).
 */
@Global()
@Module({
  imports: [PassportModule, JwtModule.register({})],
  providers: PARTS,
  exports: PARTS,
})
export class AuthModule {}
