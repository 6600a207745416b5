import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Logger } from '../common/logging/logger';
import { dataSourceOptions, JOBS_DATA_SOURCE, jobsDataSourceOptions } from './data-source';
import { NotificationListener } from './notification-listener';

@Global()
@Module({})
export class DatabaseModule {
  static forRoot(url: string, poolSize: number): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRoot({ ...dataSourceOptions(url, poolSize), retryAttempts: 2, retryDelay: 500 }),
        TypeOrmModule.forRoot({
          ...jobsDataSourceOptions(url),
          name: JOBS_DATA_SOURCE,
          retryAttempts: 2,
          retryDelay: 500,
        }),
      ],
      providers: [
        {
          provide: NotificationListener,
          useFactory: (logger: Logger) => new NotificationListener(url, logger),
          inject: [Logger],
        },
      ],
      exports: [TypeOrmModule, NotificationListener],
    };
  }
}
