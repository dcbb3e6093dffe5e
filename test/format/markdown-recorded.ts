/**
 * The answers the old scanner gave (before issue 14 split it into one block
 * pass and one inline walk), recorded once into markdown-recorded.json from
 * its frozen copy, for markdown-analyze.test.ts to compare the current
 * scanner against. The copy itself is gone: it and the recorder are in git
 * history (`git show 383fa96:test/unit/markdown-legacy.ts`, and
 * record-markdown-answers.ts beside it).
 *
 * The inputs are the generated and hand-written bodies of markdown-cases.ts
 * and markdown-corpora.ts, the sample vault's notes and a generated vault's.
 * A body's answers are found by the SHA-256 of the body (and of the snippet
 * limit, for a snippet cut at another length than the default). Short answers
 * are kept whole, so that a failure shows what was expected; longer ones as
 * a 32-bit digest of each of the four, which a change escapes once in four
 * billion: enough to say that an answer changed, and which.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** tags, plain text, snippet and search text, in that order. */
export type Answers = [tags: string[], plain: string, snippet: string, searchText: string];

export interface RecordedFile {
  about: string;
  /** Body key → the four answers whole, or their four digests joined by spaces. */
  answers: Record<string, Answers | string>;
  /** Body and limit key → the snippet whole (in a one-element array), or its digest. */
  snippets: Record<string, [string] | string>;
}

/** Answers whose JSON is longer than this are kept as digests. */
export const WHOLE_UP_TO = 120;

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function bodyKey(body: string, limit?: number): string {
  return sha256(limit === undefined ? body : `${body}\0${limit}`).slice(0, 12);
}

/** A digest of one answer. */
export function answerDigest(answer: string | string[]): string {
  return sha256(JSON.stringify(answer)).slice(0, 8);
}

export function readRecorded(): RecordedFile {
  return JSON.parse(readFileSync(new URL('./markdown-recorded.json', import.meta.url), 'utf8')) as RecordedFile;
}
