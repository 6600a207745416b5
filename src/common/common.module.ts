import { DynamicModule, Global, Module } from '@nestjs/common';
import { Clock } from './clock';
import { Logger } from './logging/logger';

/** Process-wide services every module may inject: the structured logger and the clock. */
@Global()
@Module({})
export class CommonModule {
  static forRoot(logger: Logger): DynamicModule {
    return {
      module: CommonModule,
      providers: [{ provide: Logger, useValue: logger }, Clock],
      exports: [Logger, Clock],
    };
  }
}
