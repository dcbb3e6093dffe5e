/**
 * What the vector snapshot stores beside a note's vectors to say which text
 * they are of: the text's hash (salted with the chunking rules), or, while
 * only its opening window is embedded, an opening mark. The semantic
 * indexer (semantic-indexer.ts) compares them with a note's current text to
 * embed only what changed; apart from it because they are pure and a
 * snapshot holds them across versions.
 */
import { createHash } from 'node:crypto';

/**
 * The hash stored for a note of which only the opening window is embedded:
 * its text's hash and its window count, so that a restart embeds only the
 * rest. Never equal to a content hash (which is hex).
 */
export function openingMark(hash: string, windows: number): string {
  return `${hash}+opening/${windows}`;
}

/** The content hash and window count an `openingMark` holds; undefined for any other string. Pure. */
export function parseOpeningMark(stored: string): { hash: string; windows: number } | undefined {
  const match = /^([0-9a-f]+)\+opening\/(\d+)$/.exec(stored);
  if (!match) return undefined;
  return { hash: match[1] as string, windows: Number(match[2]) };
}

/** `salt` names the chunking rules, so changing them re-embeds every note. */
export function contentHash(text: string, salt: string): string {
  return createHash('sha256').update(salt).update('\n').update(text).digest('hex').slice(0, 32);
}
