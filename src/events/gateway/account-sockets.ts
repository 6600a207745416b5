/**
 * The open sockets of each account on this instance, oldest first, capped per account: adding one past the cap
 * hands back the oldest to close. Entries leave when their socket disconnects, so the map holds only connected
 * sockets and accounts with at least one. Generic over the socket so it is tested without a server.
 */
export class AccountSockets<S> {
  private readonly byAccount = new Map<string, Set<S>>();

  constructor(private readonly cap: number) {}

  /** Registers `socket` as the account's newest; returns the sockets it displaces (to be closed), oldest first. */
  add(account: string, socket: S): S[] {
    let open = this.byAccount.get(account);
    if (!open) this.byAccount.set(account, (open = new Set()));
    open.add(socket);
    const displaced: S[] = [];
    // A Set iterates in insertion order: the first entries are the oldest.
    for (const old of open) {
      if (open.size <= this.cap) break;
      open.delete(old);
      displaced.push(old);
    }
    return displaced;
  }

  remove(account: string, socket: S): void {
    const open = this.byAccount.get(account);
    if (!open?.delete(socket)) return;
    if (open.size === 0) this.byAccount.delete(account);
  }

  count(account: string): number {
    return this.byAccount.get(account)?.size ?? 0;
  }

  /** Accounts with an open socket (what the map holds, for tests of its bound). */
  get accounts(): number {
    return this.byAccount.size;
  }
}
