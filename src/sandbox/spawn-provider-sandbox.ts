import { fork } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

/**
 * Starts the provider sandbox as a child process of the API (what `npm start` does in sandbox mode), with the same
 * environment, and resolves once it listens. The child exits when the parent goes away (IPC disconnect), so a crashed
 * API never leaves it behind. Import this module only in sandbox mode (dynamic import), so live mode never loads it.
 */
export interface SpawnedProviderSandbox {
  readonly alipayBaseUrl: string;
  readonly wechatBaseUrl: string;
  readonly pushBaseUrl: string;
  readonly pid: number;
  stop(): Promise<void>;
}

interface ReadyMessage {
  type: 'ready';
  alipayBaseUrl: string;
  wechatBaseUrl: string;
  pushBaseUrl: string;
}

/**
 * `ports` are the API's settings: 0 lets the child take free ports (the default when SANDBOX_*_PORT are unset); the
 * child reports the ports it got, and the API builds its provider URLs from them.
 */
export async function spawnProviderSandbox(
  ports: { alipayPort: number; wechatPort: number; pushPort: number },
  timeoutMs = 30_000,
): Promise<SpawnedProviderSandbox> {
  const child = fork(join(__dirname, 'provider-sandbox.main.js'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: {
      ...process.env,
      SANDBOX_ALIPAY_PORT: String(ports.alipayPort),
      SANDBOX_WECHAT_PORT: String(ports.wechatPort),
      SANDBOX_PUSH_PORT: String(ports.pushPort),
    },
  });
  const ready = new Promise<ReadyMessage>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the provider sandbox did not start in time')),
      timeoutMs,
    );
    child.on('message', (m: ReadyMessage) => {
      if (m?.type !== 'ready') return;
      clearTimeout(timer);
      resolve(m);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the provider sandbox exited with code ${code} (ports in use? see its log above)`));
    });
  });
  const message = await ready;
  return {
    alipayBaseUrl: message.alipayBaseUrl,
    wechatBaseUrl: message.wechatBaseUrl,
    pushBaseUrl: message.pushBaseUrl,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
