import { ConfigError, loadSandboxServerConfig } from '../config/config';
import { loadEnvFile } from '../config/env-file';
import { startProviderSandbox } from './provider-sandbox';

/**
 * `npm run sandbox` (node dist/src/sandbox/provider-sandbox.main.js): the provider sandbox as its own process. Reads
 * DATA_DIR and SANDBOX_* like the API does, so both find the same credentials file. When started by a parent over IPC
 * (child_process.fork) it reports `{type: 'ready', alipayBaseUrl, wechatBaseUrl}` once listening.
 */
async function main(): Promise<void> {
  loadEnvFile();
  const config = loadSandboxServerConfig();
  const sandbox = await startProviderSandbox({
    dataDir: config.dataDir,
    credentialsFile: config.credentialsFile,
    host: config.host,
    alipayPort: config.alipayPort,
    wechatPort: config.wechatPort,
    pushPort: config.pushPort,
    timeScale: config.timeScale,
    autoCompleteMs: config.autoCompleteMs,
  });
  console.log(
    JSON.stringify({
      msg: 'provider sandbox listening',
      alipay: `${sandbox.alipayBaseUrl}/gateway.do`,
      wechat: sandbox.wechatBaseUrl,
      push: sandbox.pushBaseUrl,
      test_api: [`${sandbox.alipayBaseUrl}/__sandbox/`, `${sandbox.wechatBaseUrl}/__sandbox/`],
      credentials: sandbox.credentialsFile,
    }),
  );
  process.send?.({
    type: 'ready',
    alipayBaseUrl: sandbox.alipayBaseUrl,
    wechatBaseUrl: sandbox.wechatBaseUrl,
    pushBaseUrl: sandbox.pushBaseUrl,
  });

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void sandbox.stop().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // A forked sandbox goes away with its parent.
  process.once('disconnect', stop);
}

main().catch((err: unknown) => {
  const e = err as NodeJS.ErrnoException & { port?: number };
  if (err instanceof ConfigError) console.error(err.message);
  else if (e?.code === 'EADDRINUSE') {
    console.error(
      `provider sandbox: port ${e.port} is in use (another sandbox running?); set SANDBOX_ALIPAY_PORT / SANDBOX_WECHAT_PORT / SANDBOX_PUSH_PORT`,
    );
  } else console.error('provider sandbox failed to start:', err);
  process.exit(1);
});
