import type { INestApplication } from '@nestjs/common';

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  name?: string;
  handle?: { stack?: Layer[] };
}

/** Every (METHOD path) pair the Express app serves through Nest controllers, sorted. */
export function listRoutes(app: INestApplication): string[] {
  const express = app.getHttpAdapter().getInstance() as {
    router?: { stack: Layer[] };
    _router?: { stack: Layer[] };
  };
  const stack = (express.router ?? express._router)?.stack ?? [];
  const out = new Set<string>();
  const walk = (layers: Layer[]) => {
    for (const layer of layers) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths) {
          for (const [method, on] of Object.entries(layer.route.methods)) {
            if (on && method !== '_all') out.add(`${method.toUpperCase()} ${path}`);
          }
        }
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk(stack);
  return [...out].sort();
}
