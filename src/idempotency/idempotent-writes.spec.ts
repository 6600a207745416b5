import 'reflect-metadata';
import {
  Controller,
  Delete,
  forwardRef,
  Get,
  Module,
  Patch,
  Post,
  Put,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import type { Observable } from 'rxjs';
import { Auth } from '../auth/auth.decorators';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { interceptWrites } from './idempotent-writes';

class UploadInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle();
  }
}

@Controller('things')
class ThingsController {
  @Get()
  list(): void {}

  @Post()
  create(): void {}

  @Put(':id')
  replace(): void {}

  @Patch(':id')
  update(): void {}

  @Delete(':id')
  remove(): void {}

  @Post('upload')
  @UseInterceptors(UploadInterceptor)
  upload(): void {}
}

@Controller('people')
class PeopleController {
  @Post('agents')
  @Auth({ actors: ['agent', 'admin'] })
  agents(): void {}

  @Post('workers')
  @Auth({ actors: ['worker'] })
  workers(): void {}

  @Post('public')
  open(): void {}
}

@Controller('operators')
@Auth({ actors: ['admin'] })
class OperatorsController {
  @Post()
  write(): void {}

  @Post('agents')
  @Auth({ actors: ['agent'] })
  agents(): void {}
}

@Controller('deep')
class DeepController {
  @Post()
  write(): void {}
}

@Controller('dynamic')
class DynamicController {
  @Post()
  write(): void {}
}

@Module({ controllers: [DeepController] })
class DeepModule {}

@Module({
  imports: [forwardRef(() => DeepModule)],
  controllers: [ThingsController, PeopleController, OperatorsController],
})
class ThingsModule {}

class DynamicHost {}

const interceptorsOf = (handler: object): unknown[] =>
  (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? [];

describe('interceptWrites', () => {
  beforeAll(() => {
    interceptWrites([ThingsModule, { module: DynamicHost, controllers: [DynamicController] }, undefined]);
  });

  it('puts the Idempotency-Key interceptor on every POST, PUT, PATCH and DELETE route', () => {
    for (const handler of [
      ThingsController.prototype.create,
      ThingsController.prototype.replace,
      ThingsController.prototype.update,
      ThingsController.prototype.remove,
    ]) {
      expect(interceptorsOf(handler)).toEqual([IdempotencyInterceptor]);
    }
  });

  it("leaves out write routes that no agent may call (by the route's @Auth rule, else its controller's)", () => {
    expect(interceptorsOf(PeopleController.prototype.agents)).toEqual([IdempotencyInterceptor]);
    expect(interceptorsOf(PeopleController.prototype.open)).toEqual([IdempotencyInterceptor]);
    expect(interceptorsOf(PeopleController.prototype.workers)).toEqual([]);
    expect(interceptorsOf(OperatorsController.prototype.write)).toEqual([]);
    expect(interceptorsOf(OperatorsController.prototype.agents)).toEqual([IdempotencyInterceptor]);
  });

  it('leaves reads without any interceptor', () => {
    expect(interceptorsOf(ThingsController.prototype.list)).toEqual([]);
  });

  it("runs it first, ahead of a route's own interceptors, as a global one would", () => {
    expect(interceptorsOf(ThingsController.prototype.upload)).toEqual([
      IdempotencyInterceptor,
      UploadInterceptor,
    ]);
  });

  it('reaches controllers of imported modules (forwardRef included) and of dynamic modules', () => {
    expect(interceptorsOf(DeepController.prototype.write)).toEqual([IdempotencyInterceptor]);
    expect(interceptorsOf(DynamicController.prototype.write)).toEqual([IdempotencyInterceptor]);
  });

  it('adds it once when the application is built again in the same process (the e2e suites do)', () => {
    interceptWrites([ThingsModule]);
    expect(interceptorsOf(ThingsController.prototype.upload)).toEqual([
      IdempotencyInterceptor,
      UploadInterceptor,
    ]);
  });
});
