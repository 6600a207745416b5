import { createDecipheriv, createECDH, type ECDH, hkdfSync, randomBytes } from 'node:crypto';

/**
 * What a browser does with Web Push, for tests: it holds a subscription's keys (a P-256 key pair and a 16-byte
 * authentication secret), subscribes at the test push service (src/sandbox/push), and decrypts what arrives there.
 * Decryption is RFC 8291 (aes128gcm, RFC 8188) written out with node:crypto, independent of the `web-push` library
 * that encrypts on the service's side, so a payload read here was encrypted to these keys as the standard says.
 */
export interface PushedMessage {
  id: string;
  ttl: number;
  urgency: string;
  content_encoding: string;
  body_base64: string;
  vapid: { sub: string; aud: string; exp: number; public_key: string };
}

export interface TestPushSubscription {
  readonly id: string;
  readonly endpoint: string;
  /** The browser's `JSON.stringify(subscription)`, as POST /v1/worker/push-subscriptions takes it. */
  toJSON(): { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  /** What the push service holds for this subscription, oldest first. */
  messages(): Promise<PushedMessage[]>;
  /** A message's payload, decrypted with this subscription's keys. */
  decrypt(message: PushedMessage): string;
  /** As when the user revokes the permission: the push service answers 410 from now on. */
  withdraw(): Promise<void>;
}

export async function subscribeAtTestPushService(
  pushBaseUrl: string,
  applicationServerKey?: string,
): Promise<TestPushSubscription> {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const res = await fetch(`${pushBaseUrl}/__sandbox/subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ application_server_key: applicationServerKey }),
  });
  if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${await res.text()}`);
  const { id, endpoint } = (await res.json()) as { id: string; endpoint: string };
  return {
    id,
    endpoint,
    toJSON: () => ({
      endpoint,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    }),
    messages: async () => {
      const list = await fetch(`${pushBaseUrl}/__sandbox/subscriptions/${id}/messages`);
      return ((await list.json()) as { messages: PushedMessage[] }).messages;
    },
    decrypt: (message) => decryptAes128gcm(Buffer.from(message.body_base64, 'base64'), ecdh, auth),
    withdraw: async () => {
      await fetch(`${pushBaseUrl}/__sandbox/subscriptions/${id}`, { method: 'DELETE' });
    },
  };
}

/**
 * RFC 8291 §3.4 and RFC 8188 §2: the header (salt, record size, the sender's ephemeral public key), the shared
 * secret with the receiver's private key, the keys derived through HKDF-SHA-256 with the authentication secret, then
 * AES-128-GCM over the records; the last record ends with the padding delimiter 0x02.
 */
export function decryptAes128gcm(body: Buffer, receiver: ECDH, authSecret: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20];
  const senderKey = body.subarray(21, 21 + idLength);
  const shared = receiver.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiver.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const records = body.subarray(21 + idLength);
  const plain: Buffer[] = [];
  for (let seq = 0, at = 0; at < records.length; seq++, at += recordSize) {
    const record = records.subarray(at, Math.min(at + recordSize, records.length));
    const iv = Buffer.from(nonce);
    // The record's sequence number XORed into the nonce's low bytes (the low 32 bits: far more records than a push has).
    iv.writeUInt32BE((iv.readUInt32BE(8) ^ seq) >>> 0, 8);
    const decipher = createDecipheriv('aes-128-gcm', cek, iv);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    // Zero padding, after the delimiter: 2 ends the last record, 1 any other.
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    const last = at + recordSize >= records.length;
    if (padded[end] !== (last ? 2 : 1)) throw new Error('aes128gcm: bad padding delimiter');
    plain.push(padded.subarray(0, end));
  }
  return Buffer.concat(plain).toString('utf8');
}
