import type { Schema } from './cnpg-schemas';

/**
 * JSON Schemas for the Prometheus Operator kinds components/monitoring uses (monitoring.coreos.com/v1 `PodMonitor`
 * and `PrometheusRule`), from the operator's API reference, for the fields Legwork sets; strict like cnpg-schemas.ts.
 */
const strict = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
const stringMap: Schema = { type: 'object', additionalProperties: { type: 'string' } };
const duration: Schema = {
  type: 'string',
  pattern: '^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$',
};
const metadata = strict(
  {
    name: { type: 'string', minLength: 1 },
    namespace: { type: 'string' },
    labels: stringMap,
    annotations: stringMap,
  },
  ['name'],
);
const resource = (kind: string, spec: Schema): Schema =>
  strict({ apiVersion: { const: 'monitoring.coreos.com/v1' }, kind: { const: kind }, metadata, spec }, [
    'apiVersion',
    'kind',
    'metadata',
    'spec',
  ]);

export const POD_MONITOR_SCHEMA = resource(
  'PodMonitor',
  strict(
    {
      selector: strict({ matchLabels: stringMap }, ['matchLabels']),
      podMetricsEndpoints: {
        type: 'array',
        minItems: 1,
        items: strict(
          { port: { type: 'string', minLength: 1 }, path: { type: 'string' }, interval: duration },
          ['port'],
        ),
      },
    },
    ['selector', 'podMetricsEndpoints'],
  ),
);

const rule = {
  oneOf: [
    strict(
      {
        alert: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9]*$' },
        expr: { type: 'string', minLength: 1 },
        for: duration,
        labels: stringMap,
        annotations: stringMap,
      },
      ['alert', 'expr'],
    ),
    strict(
      { record: { type: 'string', minLength: 1 }, expr: { type: 'string', minLength: 1 }, labels: stringMap },
      ['record', 'expr'],
    ),
  ],
};

export const PROMETHEUS_RULE_SCHEMA = resource(
  'PrometheusRule',
  strict(
    {
      groups: {
        type: 'array',
        minItems: 1,
        items: strict(
          {
            name: { type: 'string', minLength: 1 },
            interval: duration,
            rules: { type: 'array', minItems: 1, items: rule },
          },
          ['name', 'rules'],
        ),
      },
    },
    ['groups'],
  ),
);
