/**
 * The socket limits of product-decisions §16. HTTP rate limits never see socket messages, so sockets carry limits of
 * their own: one authenticated socket sending 30,000 `subscribe` messages used to run the API out of memory (a
 * database query per message, none of them refused). The per-IP handshake rate is configuration
 * (`WS_HANDSHAKES_PER_MINUTE_PER_IP`); these are the product's numbers.
 */
export const SOCKET_LIMITS = {
  /** Messages a socket may send per second once its burst is spent. */
  messagesPerSecond: 20,
  /** Messages a quiet socket may send at once. */
  burst: 40,
  /** A socket still flooding (past its rate and its refusals' budget) this long is disconnected. */
  floodDisconnectMs: 3_000,
  /** A flood ends after this long without an overflow: the next one starts the count again. */
  floodQuietMs: 1_000,
  /**
   * How long the server stops reading a flooding socket's connection at each overflow: what it sends meanwhile waits
   * in the kernel's buffers and on the client. Shorter than floodQuietMs, so a flood that goes on stays one flood.
   */
  floodPauseMs: 500,
  /** Task rooms one socket may be in. */
  taskRooms: 200,
  /** Open sockets per account (agent, worker or operator id) on one instance, API-key and JWT sockets together. */
  socketsPerAccount: 20,
  /** Bytes of one incoming message (socket.io's maxHttpBufferSize): a subscribe is under 100, a handshake token 1 KB. */
  maxMessageBytes: 16 * 1024,
  /** Task ids whose ownership answer one socket remembers (see OwnershipMemo). */
  rememberedTasks: 64,
  /** How long a socket remembers that it may not watch a task. */
  refusalMemoryMs: 10_000,
} as const;

/**
 * A token bucket: `capacity` tokens, refilled continuously at `perSecond`. Time is passed in (milliseconds of a
 * monotonic clock), so the bucket is pure and its behaviour is tested without waiting.
 */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly perSecond: number,
    private readonly capacity: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.at = now;
  }

  /** Takes one token if there is one. */
  take(now: number): boolean {
    // A clock read earlier than the last one (never from a monotonic clock) refills nothing rather than draining.
    const elapsed = Math.max(0, now - this.at);
    this.tokens = Math.min(this.capacity, this.tokens + (elapsed * this.perSecond) / 1000);
    this.at = Math.max(this.at, now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/**
 * What to do with one incoming message: `pass` it to its handler; `refuse` it (answer `rate_limited`: it asked for
 * an answer); `drop` it unanswered; `flood`: drop it, the socket is flooding (stop reading it for a while); or
 * `disconnect` the socket, which has been flooding for too long.
 */
export type GateVerdict = 'pass' | 'refuse' | 'drop' | 'flood' | 'disconnect';

/**
 * The per-socket message gate: the §16 rate (20 a second, bursts of 40) and the disconnect of a socket that floods.
 * A refused message is answered (when it asks for an ack), but answering is work too (a packet written to the
 * client), so refusals have a budget of their own of the same size. A socket past both, sending more than twice its
 * rate, is flooding: the rest of its messages are dropped unanswered (and the gateway stops reading it for a
 * moment), and if it is still flooding 3 s later (no second without an overflow in between) it is disconnected. A
 * client that slows down when refused never gets there.
 */
export class MessageGate {
  private readonly messages: TokenBucket;
  private readonly refusals: TokenBucket;
  private floodStart: number | null = null;
  private lastOverflow = 0;

  constructor(now: number) {
    this.messages = new TokenBucket(SOCKET_LIMITS.messagesPerSecond, SOCKET_LIMITS.burst, now);
    this.refusals = new TokenBucket(SOCKET_LIMITS.messagesPerSecond, SOCKET_LIMITS.burst, now);
  }

  /** `wantsAnswer`: the message carries an ack callback (a refusal without one is dropped without a word). */
  admit(now: number, wantsAnswer: boolean): GateVerdict {
    if (this.messages.take(now)) return 'pass';
    if (this.refusals.take(now)) return wantsAnswer ? 'refuse' : 'drop';
    if (this.floodStart === null || now - this.lastOverflow > SOCKET_LIMITS.floodQuietMs)
      this.floodStart = now;
    this.lastOverflow = now;
    return now - this.floodStart >= SOCKET_LIMITS.floodDisconnectMs ? 'disconnect' : 'flood';
  }
}
