import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { capNesting, MAX_HTML_DEPTH } from '../../src/import/html-nesting.js';
import { htmlToMarkdown } from '../../src/import/html-markdown.js';

/** How deep linkedom builds the tree of `html` put in a body: the body's children are at depth 1. */
function depth(html: string): number {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  let deepest = 0;
  for (const element of Array.from(document.querySelectorAll('*') as ArrayLike<{ parentNode: unknown }>)) {
    let levels = 0;
    for (let node: unknown = element; node; node = (node as { parentNode: unknown }).parentNode) levels++;
    deepest = Math.max(deepest, levels);
  }
  // document > html > body
  return deepest - 3;
}

/** A fixed-seed generator, so that the soup below is the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

// Pieces that tokenizers read differently: raw text, comments and their short forms, quotes holding `>`, self-closing
// tags inside svg (where they close) and outside (where they do not), implied closes, stray closing tags.
const PIECES = [
  '<div>', '</div>', '<p>', '</p>', '<svg>', '</svg>', '<g/>', '<g>', '</g>', '<script>', '</script>', '</SCRIPT >', '<script/>', '<!--', '-->', '<!-->',
  '<a href="', '">', '"', "'", '<b x=y/>', '<b>', '</b>', '</ b>', '<title>', '</title>', '<![CDATA[', ']]>', '<?', '>', '<li>', '<td>', '<tr>', '<table>',
  '<math>', '<mi>', '</mi>', '<br/>', '</br>', 'x', ' ', "<i a='>'>", '</i>', '<span/>', '<span / >', '<a href=/x/>', '</a>', '<!x>', '<!>', '<!->', '</>',
  '</ >', '</1>', '<textarea>', '</textarea>', '<xmp>', '</xmp>', '<style>', '</style>', '<body>', '</body>', '</html>', '<u', ' z=', '/', '=', '<',
  '<foreignObject>', '</foreignObject>', '<desc>', '</desc>', '<option>', '<select>', '<dd>', '<dt>', '<h1>', '<ul>', '<tbody>', '<input>', '<img>',
  '<\u000fscript>', '</scr</script>',
];

describe('capNesting', () => {
  it('leaves HTML within the limit as it is, the same string', () => {
    const html =
      '<!doctype html><html><head><title>a <div> in a title</title><script>if (a<b) document.write("<div><div>")</script></head>' +
      '<body><!-- <div><div> --><p>One<p>Two<ul><li>a<li>b</ul><svg><g/><path d="M0 0"/></svg><a href="/x?a=1&b=2" title=">">link</a><br/>' +
      `${'<div>'.repeat(MAX_HTML_DEPTH - 3)}deep${'</div>'.repeat(MAX_HTML_DEPTH - 3)}</body></html>`;
    expect(capNesting(html)).toBe(html);
  });

  it('unwraps elements past the limit and keeps their text', () => {
    const html = `<p>${'<div>'.repeat(5000)}<b>bold</b> end${'</div>'.repeat(5000)}</p><p>after</p>`;
    const capped = capNesting(html);
    expect(depth(capped)).toBeLessThanOrEqual(MAX_HTML_DEPTH);
    expect(capped.length).toBeLessThan(MAX_HTML_DEPTH * 12 + 100);
    const markdown = htmlToMarkdown(html);
    expect(markdown).toContain('bold end');
    expect(markdown).toContain('after');
  });

  it('takes time in proportion to the text: 300,000 nested elements', () => {
    // Parsing this took linkedom 63 s; the pass reads it once and builds nothing.
    const html = `${'<a>'.repeat(300_000)}x${'</a>'.repeat(300_000)}`;
    const capped = capNesting(html);
    expect(depth(capped)).toBeLessThanOrEqual(MAX_HTML_DEPTH);
    expect(htmlToMarkdown(html)).toBe('x');
  });

  it('never lets the tree grow past the limit, however the tags are written (a fixed soup of 1,500 documents)', () => {
    const next = random(29);
    for (let round = 0; round < 1500; round++) {
      const pieces: string[] = [];
      const count = 20 + Math.floor(next() * 300);
      for (let index = 0; index < count; index++) pieces.push(next() < 0.35 ? '<div>' : (PIECES[Math.floor(next() * PIECES.length)] ?? ''));
      const html = pieces.join('');
      const limit = 1 + Math.floor(next() * 8);
      expect(capNesting(html, 100_000)).toBe(html);
      // A void or raw-text element may sit one level below the limit: it holds no elements.
      expect(depth(capNesting(html, limit)), html).toBeLessThanOrEqual(limit + 1);
    }
  });

  it('does not join a text "<" with what follows a cut tag into a new tag', () => {
    // `<<div>`: the first `<` is text; cut the `<div>`, and `<` + `/` would start a closing tag.
    const capped = capNesting('<div><<div>/<title><div><p>x', 1);
    expect(capped).toBe('<div>&lt;/<title><div><p>x');
    expect(depth(capped)).toBeLessThanOrEqual(2);
  });
});
