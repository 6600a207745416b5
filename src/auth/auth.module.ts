import { Global, Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { ApiSecretVerifier } from './api-secret';
import { AuthCache } from './auth-cache';
import { Authenticator } from './authenticator';
import { BearerStrategy } from './bearer.strategy';
import { LoginThrottle } from './login-throttle';
import { PasswordHasher } from './passwords';
import { SignInChallenges } from './sign-in-challenges';
import { Tokens } from './tokens';
import { UsageTracker } from './usage-tracker';

/**
 * Credentials for every kind of principal: passwords, JWT pairs, API-key resolution (cached, see AuthCache), lock-out,
 * usage counts.
 */
@Global()
@Module({
  imports: [PassportModule, JwtModule.register({})],
  providers: [
    AuthCache,
    Authenticator,
    BearerStrategy,
    PasswordHasher,
    Tokens,
    UsageTracker,
    LoginThrottle,
    ApiSecretVerifier,
    SignInChallenges,
  ],
  exports: [
    AuthCache,
    Authenticator,
    PasswordHasher,
    Tokens,
    UsageTracker,
    LoginThrottle,
    ApiSecretVerifier,
    SignInChallenges,
  ],
})
export class AuthModule {}
