import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import {
  loadPaymentSettings,
  loadSandboxSettings,
  type PaymentSettings,
  type ProviderSandboxSettings,
} from './payment-config';
import {
  generateVapidPrivateKey,
  loadSmsSettings,
  loadWebPushSettings,
  type SmsSettings,
  type WebPushSettings,
} from './notification-config';
import { ConfigError, type Env, Reader } from './reader';
import { createOnce, replaceWhole } from './write-once';

export { ConfigError } from './reader';

/**
 * The one validated configuration object. Nothing else in the codebase reads process.env:
 * every setting is parsed and checked here so that a bad value fails the boot with a clear message.
 */
export type PaymentMode = 'sandbox' | 'live';

export interface AppConfig {
  readonly env: 'development' | 'test' | 'production';
  readonly port: number;
  readonly publicBaseUrl: string;
  readonly dataDir: string;
  /** External PostgreSQL; when null an embedded server is started under dataDir. */
  readonly databaseUrl: string | null;
  readonly databasePoolSize: number;
  readonly embeddedPgPort: number;
  readonly redisUrl: string | null;
  /** Prefix of every Redis key and pub/sub channel this deployment uses (several deployments may share a Redis). */
  readonly redisKeyPrefix: string;
  /** Names this process in WebSocket statistics and logs; unique per running instance. */
  readonly instanceId: string;
  readonly paymentMode: PaymentMode;
  readonly apiKeyPrefix: 'lw_live_' | 'lw_test_';
  readonly platformFeeBps: number;
  readonly autoApproveHours: number;
  /** A worker's `online: true` keeps it on call this long unless it reports again or turns it off (§16). */
  readonly onCallHours: number;
  readonly uploadDir: string;
  readonly uploads: UploadSettings;
  readonly storage: StorageSettings;
  readonly jwt: {
    readonly accessSecret: string;
    readonly refreshSecret: string;
    readonly accessTtlSeconds: number;
    readonly refreshTtlSeconds: number;
  };
  readonly rateLimits: {
    readonly authPerMinutePerIp: number;
    readonly workerPerMinute: number;
    /** Task quotes per agent, besides the agent's general budget (product-decisions §16, quote privacy). */
    readonly quotePerMinute: number;
    readonly quotePerDay: number;
    /** Messages an agent or a worker may send per minute, besides their general budget (product-decisions §19). */
    readonly messagesPerMinute: number;
    /** Reports of tasks a worker may file per minute, besides their general budget (product-decisions §19). */
    readonly reportsPerMinute: number;
    /** socket.io handshakes on /ws per client IP per minute, refused before any credential is looked up. */
    readonly wsHandshakesPerMinutePerIp: number;
  };
  readonly webhooks: {
    /** Master key from which the key that encrypts webhook signing secrets at rest is derived (AES-256-GCM). */
    readonly secretKey: string;
  };
  readonly runJobsInProcess: boolean;
  /** Seconds an API instance keeps serving after SIGTERM with /readyz at 503, so load balancers stop sending first. */
  readonly shutdownDrainSeconds: number;
  /** Port of the job runner's /livez and /readyz listener; null: no listener (the job runner has no HTTP otherwise). */
  readonly jobsHealthPort: number | null;
  readonly trustProxy: boolean;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly fxUsdCny: number;
  readonly payments: PaymentSettings;
  /** SMS (codes and offer links) and Web Push: how workers are reached outside the app. */
  readonly sms: SmsSettings;
  readonly webPush: WebPushSettings;
  readonly metrics: MetricsSettings;
  readonly tracing: TracingSettings;
}

/**
 * Prometheus metrics (product-decisions §20): each process serves GET /metrics on a port of its own, never the API's
 * public one (Kubernetes scrapes the pod; the Service and the Ingress do not route it).
 */
export interface MetricsSettings {
  /** False: no HTTP metrics hook and no /metrics listener (the bench's "metrics off"). */
  readonly enabled: boolean;
  /** The API process's /metrics port; 0: one the operating system picks (tests, benchmarks). */
  readonly port: number;
  /** The job runner's (`npm run start:jobs`) /metrics port; 0 as above. */
  readonly jobsPort: number;
}

/** OpenTelemetry traces (§20), only when an OTLP endpoint is configured. */
export interface TracingSettings {
  /** OTLP/HTTP base URL (spans go to `<endpoint>/v1/traces`); null: tracing off, no OpenTelemetry code loaded. */
  readonly otlpEndpoint: string | null;
  /** service.name of the spans; the job runner appends `-jobs`. */
  readonly serviceName: string;
}

/** Per-worker upload quotas and where uploads are staged while they stream in (finding P1). */
export interface UploadSettings {
  /** Received files are streamed here (never held in memory), checked, then moved to the store. */
  readonly stagingDir: string;
  readonly maxConcurrentPerWorker: number;
  readonly dailyBytesPerWorker: number;
}

/** Where accepted files live: this machine's disk (UPLOAD_DIR), or an S3-compatible bucket shared by every instance. */
export type StorageSettings =
  | { readonly driver: 'local' }
  | {
      readonly driver: 's3';
      /** Null: AWS S3 itself, the endpoint following from the region. */
      readonly endpoint: string | null;
      readonly bucket: string;
      readonly region: string;
      /** Null: the SDK's default credential chain (instance or pod role, AWS_* variables, profiles). */
      readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | null;
      /** Bucket in the path (MinIO and most self-hosted stores) rather than in the host name. */
      readonly forcePathStyle: boolean;
      readonly signedUrlTtlSeconds: number;
    };

/** The secrets sandbox mode generates when they are unset (loadConfig's `secret`). */
const SANDBOX_SECRETS = [
  'JWT_ACCESS_SECRET',
  'JWT_REFRESH_SECRET',
  'WEBHOOK_SECRET_KEY',
  'VAPID_PRIVATE_KEY',
] as const;

/** Random bytes, except where the secret is a key of a given kind. */
function generateSecret(name: string): string {
  return name === 'VAPID_PRIVATE_KEY' ? generateVapidPrivateKey() : randomBytes(48).toString('base64url');
}

/**
 * In sandbox mode unset secrets are generated once and kept under the data directory, so tokens survive a restart
 * without any set-up. Live mode never generates secrets: they must be configured.
 *
 * The file is created with every one of them at once and atomically (createOnce): two instances starting side by
 * side in one checkout read the same secrets, where each writing its own had one read the other's file half written
 * (`Unexpected end of JSON input`) or keep a secret the other then overwrote. A data directory from before a secret
 * existed gets it added in one rename.
 */
function sandboxSecret(dataDir: string, name: string): string {
  const file = join(dataDir, 'secrets.json');
  if (!existsSync(file)) {
    const all = Object.fromEntries(
      [...new Set([...SANDBOX_SECRETS, name])].map((n) => [n, generateSecret(n)]),
    );
    createOnce(file, JSON.stringify(all, null, 2));
  }
  const secrets = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  if (!secrets[name]) {
    secrets[name] = generateSecret(name);
    replaceWhole(file, JSON.stringify(secrets, null, 2));
  }
  return secrets[name];
}

export function loadConfig(env: Env = process.env): AppConfig {
  const r = new Reader(env);
  const nodeEnv = r.oneOf('NODE_ENV', 'development', ['development', 'test', 'production'] as const);
  const paymentMode = r.oneOf('PAYMENT_MODE', 'sandbox', ['sandbox', 'live'] as const);
  const port = r.int('PORT', 8000, 0, 65535);
  const dataDir = resolve(r.str('DATA_DIR', '.data'));
  const live = paymentMode === 'live';

  const secret = (name: string): string => {
    const v = r.optional(name);
    if (v !== null) {
      if (v.length < 32) r.problems.push(`${name} must be at least 32 characters`);
      return v;
    }
    if (live) {
      r.problems.push(`${name} is required when PAYMENT_MODE=live`);
      return '';
    }
    return sandboxSecret(dataDir, name);
  };

  const databaseUrl = r.url('DATABASE_URL', ['postgres:', 'postgresql:']);
  if (live && databaseUrl === null) r.problems.push('DATABASE_URL is required when PAYMENT_MODE=live');

  const publicBaseUrl = r.str('PUBLIC_BASE_URL', `http://localhost:${port}`).replace(/\/$/, '');
  const config: AppConfig = {
    env: nodeEnv,
    port,
    publicBaseUrl,
    dataDir,
    databaseUrl,
    databasePoolSize: r.int('DATABASE_POOL_SIZE', 20, 2, 500),
    embeddedPgPort: r.int('EMBEDDED_PG_PORT', 54329, 1024, 65535),
    redisUrl: r.url('REDIS_URL', ['redis:', 'rediss:']),
    redisKeyPrefix: r.str('REDIS_KEY_PREFIX', 'legwork'),
    instanceId: r.str('INSTANCE_ID', `${hostname()}:${process.pid}`),
    paymentMode,
    apiKeyPrefix: live ? 'lw_live_' : 'lw_test_',
    platformFeeBps: r.int('PLATFORM_FEE_BPS', 1000, 0, 5000),
    autoApproveHours: r.int('AUTO_APPROVE_HOURS', 72, 1, 24 * 30),
    onCallHours: r.int('ON_CALL_HOURS', 8, 1, 24),
    uploadDir: resolve(r.str('UPLOAD_DIR', join(dataDir, 'uploads'))),
    uploads: {
      stagingDir: resolve(r.str('UPLOAD_TMP_DIR', join(dataDir, 'upload-staging'))),
      maxConcurrentPerWorker: r.int('UPLOAD_MAX_CONCURRENT_PER_WORKER', 2, 1, 100),
      dailyBytesPerWorker: r.int('UPLOAD_DAILY_MB_PER_WORKER', 256, 1, 1_000_000) * 1024 * 1024,
    },
    storage: loadStorageSettings(r),
    jwt: {
      accessSecret: secret('JWT_ACCESS_SECRET'),
      refreshSecret: secret('JWT_REFRESH_SECRET'),
      accessTtlSeconds: r.int('JWT_ACCESS_TTL_SECONDS', 900, 60, 3600),
      refreshTtlSeconds: r.int('JWT_REFRESH_TTL_SECONDS', 7 * 24 * 3600, 3600, 90 * 24 * 3600),
    },
    rateLimits: {
      authPerMinutePerIp: r.int('AUTH_RATE_LIMIT_PER_MINUTE', 60, 1, 100000),
      workerPerMinute: r.int('WORKER_RATE_LIMIT_PER_MINUTE', 300, 1, 100000),
      quotePerMinute: r.int('QUOTE_RATE_LIMIT_PER_MINUTE', 20, 1, 100000),
      quotePerDay: r.int('QUOTE_RATE_LIMIT_PER_DAY', 500, 1, 10_000_000),
      messagesPerMinute: r.int('MESSAGE_RATE_LIMIT_PER_MINUTE', 20, 1, 100000),
      reportsPerMinute: r.int('REPORT_RATE_LIMIT_PER_MINUTE', 5, 1, 100000),
      wsHandshakesPerMinutePerIp: r.int('WS_HANDSHAKES_PER_MINUTE_PER_IP', 120, 1, 100000),
    },
    // Seals secrets at rest (webhook signing secrets, operators' TOTP secrets and recovery codes, each under a key
    // derived for it); generated under DATA_DIR in sandbox, required in live mode.
    webhooks: { secretKey: secret('WEBHOOK_SECRET_KEY') },
    runJobsInProcess: r.bool('JOBS_IN_PROCESS', true),
    shutdownDrainSeconds: r.int('SHUTDOWN_DRAIN_SECONDS', 5, 0, 300),
    jobsHealthPort: r.optional('JOBS_HEALTH_PORT') === null ? null : r.int('JOBS_HEALTH_PORT', 0, 1, 65535),
    trustProxy: r.bool('TRUST_PROXY', false),
    logLevel: r.oneOf('LOG_LEVEL', nodeEnv === 'test' ? 'silent' : 'info', [
      'fatal',
      'error',
      'warn',
      'info',
      'debug',
      'trace',
      'silent',
    ] as const),
    fxUsdCny: r.num('FX_USD_CNY', 7.1, 0.01, 1000),
    payments: loadPaymentSettings(r, live, dataDir, publicBaseUrl),
    sms: loadSmsSettings(r, live),
    // The VAPID private key is kept like the other secrets: generated under DATA_DIR in sandbox, required in live.
    webPush: loadWebPushSettings(r, live, secret('VAPID_PRIVATE_KEY'), publicBaseUrl),
    metrics: {
      enabled: r.bool('METRICS_ENABLED', true),
      port: r.int('METRICS_PORT', 9464, 0, 65535),
      jobsPort: r.int('JOBS_METRICS_PORT', 9465, 0, 65535),
    },
    tracing: {
      otlpEndpoint: r.url('OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:'])?.replace(/\/$/, '') ?? null,
      serviceName: r.str('OTEL_SERVICE_NAME', 'legwork'),
    },
  };
  if (config.jwt.accessSecret && config.jwt.accessSecret === config.jwt.refreshSecret) {
    r.problems.push('JWT_ACCESS_SECRET and JWT_REFRESH_SECRET must differ');
  }
  if (config.metrics.enabled && config.metrics.port !== 0 && config.metrics.port === config.port) {
    r.problems.push('METRICS_PORT must differ from PORT (metrics are never served on the public port)');
  }
  if (!/^[A-Za-z0-9:_-]{1,64}$/.test(config.redisKeyPrefix)) {
    r.problems.push('REDIS_KEY_PREFIX must be 1 to 64 letters, digits, colons, dashes or underscores');
  }
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return config;
}

function loadStorageSettings(r: Reader): StorageSettings {
  const driver = r.oneOf('STORAGE', 'local', ['local', 's3'] as const);
  if (driver === 'local') return { driver };
  const bucket = r.optional('S3_BUCKET');
  if (bucket === null) r.problems.push('S3_BUCKET is required when STORAGE=s3');
  const accessKeyId = r.optional('S3_ACCESS_KEY_ID');
  const secretAccessKey = r.optional('S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === null) !== (secretAccessKey === null)) {
    r.problems.push(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together, or neither (default credentials)',
    );
  }
  return {
    driver,
    endpoint: r.url('S3_ENDPOINT', ['http:', 'https:']),
    bucket: bucket ?? '',
    region: r.str('S3_REGION', 'us-east-1'),
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : null,
    forcePathStyle: r.bool('S3_FORCE_PATH_STYLE', false),
    signedUrlTtlSeconds: r.int('S3_SIGNED_URL_TTL_SECONDS', 300, 10, 3600),
  };
}

export interface SandboxServerConfig extends ProviderSandboxSettings {
  readonly dataDir: string;
}

/**
 * Settings of the provider sandbox process (src/sandbox/provider-sandbox.main.ts). It never runs in live mode, and
 * it reads the same DATA_DIR and SANDBOX_* variables as the API so both sides find the same credentials file.
 */
export function loadSandboxServerConfig(env: Env = process.env): SandboxServerConfig {
  const r = new Reader(env);
  if (r.oneOf('PAYMENT_MODE', 'sandbox', ['sandbox', 'live'] as const) === 'live') {
    r.problems.push('the provider sandbox does not run when PAYMENT_MODE=live');
  }
  const dataDir = resolve(r.str('DATA_DIR', '.data'));
  const settings = loadSandboxSettings(r, dataDir, true);
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return { ...settings, dataDir };
}
