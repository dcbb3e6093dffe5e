import { describe, expect, it } from 'vitest';
import { extractTags } from '../../src/format/markdown.js';
import { tagSpans } from '../../src/format/markdown/tag-spans.js';
import { tagCovers } from '../../src/format/tags.js';
import { TAG_GROUPS } from './markdown-cases.js';

/**
 * The spans agree with extractTags over every case of the tag tables: for
 * each tag a case reads, renaming the spans of that tag gives a body whose
 * tags are the case's tags with that tag (and those nested under it) renamed,
 * and no other.
 */
describe('tagSpans agrees with extractTags', () => {
  for (const [group, cases] of TAG_GROUPS) {
    const withTags = cases.filter(([, , expected]) => expected.length > 0);
    if (withTags.length === 0) continue;
    it.each(withTags)(`${group}: %s`, (_what, body, expected) => {
      for (const tag of expected) {
        const spans = tagSpans(body, tag);
        let renamed = '';
        let at = 0;
        for (const span of spans) {
          renamed += body.slice(at, span.start) + 'zzrenamed';
          at = span.end;
        }
        renamed += body.slice(at);
        const sigil = tag[0] as string;
        const wanted = [...new Set(expected.map((read) => (tagCovers(tag, read) ? `${sigil}zzrenamed${read.slice(tag.length)}` : read)))];
        expect(extractTags(renamed), `renaming ${tag}`).toEqual(wanted);
      }
    });
  }
});

describe('tagSpans', () => {
  it('gives the part of the name that spells the tag', () => {
    const body = 'x #Proj/Alpha y';
    expect(tagSpans(body, '#proj').map(({ start, end }) => body.slice(start, end))).toEqual(['Proj']);
  });

  it('finds none in a body without the tag read as one', () => {
    expect(tagSpans('`#proj` #projects', '#proj')).toEqual([]);
  });
});
