import { AccountSockets } from './account-sockets';

describe('AccountSockets', () => {
  it('the 21st socket of an account displaces the oldest; other accounts are untouched', () => {
    const sockets = new AccountSockets<string>(20);
    for (let i = 0; i < 20; i++) expect(sockets.add('agent:a', `a${i}`)).toEqual([]);
    expect(sockets.add('agent:b', 'b0')).toEqual([]);
    expect(sockets.add('agent:a', 'a20')).toEqual(['a0']);
    expect(sockets.add('agent:a', 'a21')).toEqual(['a1']);
    expect(sockets.count('agent:a')).toBe(20);
    expect(sockets.count('agent:b')).toBe(1);
  });

  it('500 sockets of one account leave the 20 newest', () => {
    const sockets = new AccountSockets<number>(20);
    const displaced: number[] = [];
    for (let i = 0; i < 500; i++) displaced.push(...sockets.add('worker:w', i));
    expect(displaced).toEqual(Array.from({ length: 480 }, (_, i) => i));
    expect(sockets.count('worker:w')).toBe(20);
  });

  it('a closed socket frees its place, and an account with none left is forgotten', () => {
    const sockets = new AccountSockets<string>(2);
    sockets.add('agent:a', 'x');
    sockets.add('agent:a', 'y');
    sockets.remove('agent:a', 'x');
    expect(sockets.add('agent:a', 'z')).toEqual([]);
    sockets.remove('agent:a', 'y');
    sockets.remove('agent:a', 'z');
    sockets.remove('agent:a', 'z'); // twice (a displaced socket's own disconnect) is harmless
    expect(sockets.count('agent:a')).toBe(0);
    expect(sockets.accounts).toBe(0);
  });
});
