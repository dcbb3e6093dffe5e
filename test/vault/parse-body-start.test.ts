import { describe, expect, it } from 'vitest';
import { parseNoteFile } from '../../src/vault/parse.js';

/** The parsing worker sends `bodyStart` instead of the body: the main thread cuts the body from the text it sent. */
describe('parseNoteFile: the body is the text from bodyStart on', () => {
  it.each<[string, string, string]>([
    ['no frontmatter', '# Title\n\nText #tag\n', '# Title\n\nText #tag\n'],
    ['a byte order mark and no frontmatter', '\uFEFF# Title\n', '# Title\n'],
    ['frontmatter', '---\ntitle: A\nstatus: done\n---\nBody\n', 'Body\n'],
    ['frontmatter after a byte order mark', '\uFEFF---\ntitle: A\n---\nBody\n', 'Body\n'],
    ['CRLF line breaks', '---\r\ntitle: A\r\n---\r\nBody\r\n', 'Body\r\n'],
    ['a block that is not YAML: all body, fences too', '---\ntitle: [unclosed\n---\nBody\n', '---\ntitle: [unclosed\n---\nBody\n'],
    ['only frontmatter', '---\ntitle: A\n---', ''],
    ['an empty file', '', ''],
  ])('%s', (_name, content, body) => {
    const parsed = parseNoteFile({ path: 'A.md', content, size: content.length, mtimeMs: 1, ctimeMs: 1, ino: 1, birthtimeMs: 1 });
    expect(parsed.body).toBe(body);
    expect(content.slice(parsed.bodyStart)).toBe(parsed.body);
  });
});
