/**
 * Where a tag stands in a body, for rename_tag: the stretches of text that
 * name one tag (or a tag nested under it) as a tag, with the Markdown pass
 * itself deciding what counts. A `#proj` in code, inline code, a comment, a
 * link or a URL is not one, and neither is the `#proj` of `#projects`.
 *
 * The pass (analyze.ts) reads leaves whose text is rebuilt from the body
 * (container markers taken off, lines joined), so it has no body offsets to
 * give. Rather than a second copy of its rules, every place where the tag is
 * spelt after a sigil is a candidate, each candidate is labelled with a
 * marker of its own inside its name, and one run of `extractTags` over the
 * labelled body says which labels came out inside a tag that the renamed tag
 * covers. The marker is letters and digits put between two letters or
 * digits of the name, which no rule of the pass tells apart: emphasis, bare
 * URLs (no `h` or `w` in it), e-mail addresses and digit-only names read the
 * labelled name as they read the name. test/format/tag-spans.test.ts checks
 * that over every case of the tag tables.
 */
import { foldName } from '../../storage/names.js';
import { tagCovers } from '../tags.js';
import { extractTags } from './analyze.js';
import { isTagChar } from './chars.js';

/** The name of a tag in a body: `[start, end)`, after its sigil, the part spelling the tag looked for (not a nested rest). */
export interface TagSpan {
  start: number;
  end: number;
}

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const MARKER = /qqdexi(\d+)qq/u;

function marker(k: number): string {
  return `qqdexi${k}qq`;
}

/**
 * The spans of `tag` (normalised, with its sigil: `#proj`) and its nested
 * tags in `body`, in order: only where the Markdown rules read a tag that
 * `tag` covers, and only its own part (`#proj` of `#Proj/Alpha`: `Proj`).
 */
export function tagSpans(body: string, tag: string): TagSpan[] {
  const candidates = spelledAfterSigil(body, tag);
  if (candidates.length === 0) return [];
  let labelled = body;
  for (let k = candidates.length - 1; k >= 0; k--) {
    const span = candidates[k] as TagSpan;
    const at = labelAt(body, span);
    labelled = labelled.slice(0, at) + marker(k) + labelled.slice(at);
  }
  const found = new Set<number>();
  for (const read of extractTags(labelled)) {
    const label = MARKER.exec(read);
    if (!label) continue;
    if (tagCovers(tag, read.replace(MARKER, ''))) found.add(Number(label[1]));
  }
  return candidates.filter((_, k) => found.has(k));
}

/**
 * Where a candidate's marker goes: after the name's first letter or digit,
 * so that it stands between two of them (a letter or digit follows, or the
 * name ends there and the marker just lengthens a word); at the name's start
 * when it has none.
 */
function labelAt(body: string, span: TagSpan): number {
  for (let i = span.start; i < span.end; ) {
    const cp = body.codePointAt(i) ?? 0;
    const width = cp > 0xffff ? 2 : 1;
    if (LETTER_OR_DIGIT.test(String.fromCodePoint(cp))) return i + width;
    i += width;
  }
  return span.start;
}

/**
 * Every place a sigil of `tag`'s kind is followed by tag characters of which
 * a prefix folds like `tag`'s name and ends where its run ends or at a
 * character that can end or nest a tag (`/`, `_`, `-`): what the Markdown
 * rules may read as the tag or a nested one.
 */
function spelledAfterSigil(body: string, tag: string): TagSpan[] {
  const sigil = tag[0] as string;
  const key = foldName(tag.slice(1));
  const spans: TagSpan[] = [];
  for (let i = body.indexOf(sigil); i >= 0; i = body.indexOf(sigil, i + 1)) {
    let end = i + 1;
    while (end < body.length) {
      const cp = body.codePointAt(end) ?? 0;
      if (!isTagChar(cp)) break;
      end += cp > 0xffff ? 2 : 1;
    }
    const prefix = prefixFolding(body, i + 1, end, key);
    if (prefix > 0) spans.push({ start: i + 1, end: prefix });
  }
  return spans;
}

/** The end of the prefix of `body[start, end)` that folds to `key` and stops before `/`, `_`, `-` or at `end`; 0 when none does. */
function prefixFolding(body: string, start: number, end: number, key: string): number {
  for (let p = start + 1; p <= end; p++) {
    const next = body.charCodeAt(p);
    if (p < end && next !== 0x2f && next !== 0x5f && next !== 0x2d) continue;
    if (foldName(body.slice(start, p)) === key) return p;
  }
  return 0;
}
