/**
 * JSON Schemas for the two CloudNativePG kinds the cnpg overlay uses (postgresql.cnpg.io/v1 `Cluster` and `Pooler`),
 * written from the CloudNativePG API reference and CRDs (1.24+) for the fields Legwork sets. Focused and strict:
 * every object lists its fields with `additionalProperties: false`, so a misspelt field fails here instead of being
 * dropped by the API server. Using another CNPG field means adding it here, from the API reference, first.
 */
export type Schema = Record<string, unknown>;

/** A Kubernetes resource quantity ("250m", "2Gi", "1"). */
const quantity: Schema = {
  anyOf: [
    { type: 'integer', minimum: 0 },
    {
      type: 'string',
      pattern:
        '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$',
    },
  ],
};

const strict = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

const stringMap: Schema = { type: 'object', additionalProperties: { type: 'string' } };
const localObjectReference = strict({ name: { type: 'string', minLength: 1 } }, ['name']);
const resources = strict({
  requests: { type: 'object', additionalProperties: quantity },
  limits: { type: 'object', additionalProperties: quantity },
});
const metadata: Schema = {
  type: 'object',
  properties: {
    name: { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', maxLength: 63 },
    namespace: { type: 'string' },
    labels: stringMap,
    annotations: stringMap,
  },
  required: ['name'],
};
/** StorageConfiguration: size and class of the instances' persistent volumes. */
const storage = strict({
  size: { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$' },
  storageClass: { type: 'string' },
  resizeInUseVolumes: { type: 'boolean' },
});

const resource = (kind: string, spec: Schema, apiVersion = 'postgresql.cnpg.io/v1'): Schema => ({
  type: 'object',
  properties: {
    apiVersion: { const: apiVersion },
    kind: { const: kind },
    metadata,
    spec,
  },
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  additionalProperties: false,
});

/** `Cluster` (ClusterSpec): instances, image, update strategy, bootstrap, parameters, storage, scheduling. */
export const CLUSTER_SCHEMA = resource(
  'Cluster',
  strict(
    {
      description: { type: 'string' },
      instances: { type: 'integer', minimum: 1 },
      imageName: { type: 'string', minLength: 1 },
      primaryUpdateStrategy: { enum: ['unsupervised', 'supervised'] },
      primaryUpdateMethod: { enum: ['switchover', 'restart'] },
      enableSuperuserAccess: { type: 'boolean' },
      enablePDB: { type: 'boolean' },
      bootstrap: strict({
        initdb: strict(
          {
            database: { type: 'string', minLength: 1 },
            owner: { type: 'string', minLength: 1 },
            secret: localObjectReference,
            encoding: { type: 'string' },
            dataChecksums: { type: 'boolean' },
          },
          ['database', 'owner'],
        ),
      }),
      postgresql: strict({
        parameters: stringMap,
        pg_hba: { type: 'array', items: { type: 'string' } },
      }),
      storage,
      walStorage: storage,
      resources,
      // CNPG-I plugins (1.26+): the Barman Cloud plugin archives WAL (components/backup).
      plugins: {
        type: 'array',
        items: strict(
          {
            name: { type: 'string', minLength: 1 },
            enabled: { type: 'boolean' },
            isWALArchiver: { type: 'boolean' },
            parameters: stringMap,
          },
          ['name'],
        ),
      },
      affinity: strict({
        enablePodAntiAffinity: { type: 'boolean' },
        topologyKey: { type: 'string' },
        podAntiAffinityType: { enum: ['preferred', 'required'] },
        nodeSelector: stringMap,
      }),
    },
    ['instances'],
  ),
);

/** `Pooler` (PoolerSpec): the PgBouncer deployment in front of a Cluster's rw or ro service. */
export const POOLER_SCHEMA = resource(
  'Pooler',
  strict(
    {
      cluster: localObjectReference,
      instances: { type: 'integer', minimum: 0 },
      type: { enum: ['rw', 'ro', 'r'] },
      pgbouncer: strict({
        poolMode: { enum: ['session', 'transaction'] },
        parameters: stringMap,
        paused: { type: 'boolean' },
      }),
      template: strict({
        metadata: strict({ labels: stringMap, annotations: stringMap }),
        spec: strict(
          {
            containers: {
              type: 'array',
              minItems: 1,
              items: strict({ name: { type: 'string', minLength: 1 }, resources }, ['name']),
            },
          },
          ['containers'],
        ),
      }),
    },
    ['cluster', 'pgbouncer'],
  ),
);

/** `ScheduledBackup` (ScheduledBackupSpec): a six-field cron schedule, the cluster, the method. */
export const SCHEDULED_BACKUP_SCHEMA = resource(
  'ScheduledBackup',
  strict(
    {
      schedule: { type: 'string', pattern: '^\\S+( \\S+){5}$' },
      immediate: { type: 'boolean' },
      suspend: { type: 'boolean' },
      backupOwnerReference: { enum: ['none', 'self', 'cluster'] },
      cluster: localObjectReference,
      method: { enum: ['barmanObjectStore', 'volumeSnapshot', 'plugin'] },
      target: { enum: ['primary', 'prefer-standby'] },
      pluginConfiguration: strict({ name: { type: 'string', minLength: 1 }, parameters: stringMap }, [
        'name',
      ]),
    },
    ['schedule', 'cluster'],
  ),
);

const secretKey = strict({ name: { type: 'string', minLength: 1 }, key: { type: 'string', minLength: 1 } }, [
  'name',
  'key',
]);
const compression = { enum: ['gzip', 'bzip2', 'snappy', 'lz4', 'xz', 'zstd'] };

/**
 * The Barman Cloud plugin's `ObjectStore` (barmancloud.cnpg.io/v1): its `configuration` is the in-tree
 * BarmanObjectStoreConfiguration (destination, endpoint, S3 credentials, WAL and data settings).
 */
export const OBJECT_STORE_SCHEMA = resource(
  'ObjectStore',
  strict(
    {
      retentionPolicy: { type: 'string', pattern: '^[1-9][0-9]*[dwm]$' },
      configuration: strict(
        {
          destinationPath: { type: 'string', pattern: '^s3://[^/]+(/.*)?$' },
          endpointURL: { type: 'string', pattern: '^https?://' },
          s3Credentials: strict(
            {
              accessKeyId: secretKey,
              secretAccessKey: secretKey,
              region: secretKey,
              sessionToken: secretKey,
              inheritFromIAMRole: { type: 'boolean' },
            },
            [],
          ),
          wal: strict({ compression, maxParallel: { type: 'integer', minimum: 1 } }),
          data: strict({ compression, jobs: { type: 'integer', minimum: 1 } }),
        },
        ['destinationPath'],
      ),
    },
    ['configuration'],
  ),
  'barmancloud.cnpg.io/v1',
);
