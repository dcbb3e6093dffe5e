import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bytesToHash, OFF_THREAD_MIN_BYTES, SharedHash } from '../../src/index/shared-hash.js';

/** `lengths` bytes each, in shared memory where `shared` says, filled with a pattern that differs piece to piece. */
function pieces(lengths: readonly number[], shared: readonly boolean[]): Uint8Array[] {
  return lengths.map((length, i) => {
    const bytes = new Uint8Array(shared[i] ? new SharedArrayBuffer(length) : new ArrayBuffer(length));
    for (let b = 0; b < length; b++) bytes[b] = (b * 31 + i * 7) & 0xff;
    return bytes;
  });
}

describe('SharedHash', () => {
  it.each([
    { name: 'no piece', lengths: [], shared: [] },
    { name: 'one shared piece (on the worker)', lengths: [1000], shared: [true] },
    { name: 'two shared pieces (on the worker, in order)', lengths: [4096, 333], shared: [true, true] },
    { name: 'pieces in ordinary memory (here)', lengths: [10, 20], shared: [false, false] },
    { name: 'a shared piece after an ordinary one (here)', lengths: [10, 20], shared: [false, true] },
    { name: 'an ordinary piece after a shared one (here)', lengths: [10, 20], shared: [true, false] },
    { name: 'an empty shared piece', lengths: [0, 5], shared: [true, true] },
  ])('gives the SHA-1 of the pieces joined: $name', async ({ lengths, shared }) => {
    const fed = pieces(lengths, shared);
    const hash = new SharedHash();
    for (const piece of fed) hash.update(piece);
    const expected = createHash('sha1');
    for (const piece of fed) expected.update(piece);
    expect((await hash.digest()).equals(expected.digest())).toBe(true);
  });

  it('puts a large whole in shared memory, a small one not', () => {
    expect(bytesToHash(10, OFF_THREAD_MIN_BYTES)).toBeInstanceOf(SharedArrayBuffer);
    expect(bytesToHash(10, OFF_THREAD_MIN_BYTES - 1)).toBeInstanceOf(ArrayBuffer);
  });

  it('can be closed without a digest', async () => {
    const hash = new SharedHash();
    hash.update(pieces([100], [true])[0] as Uint8Array);
    hash.close();
    // Closed, it still answers, from the pieces it kept.
    const expected = createHash('sha1').update(pieces([100], [true])[0] as Uint8Array).digest();
    expect((await hash.digest()).equals(expected)).toBe(true);
  });
});
