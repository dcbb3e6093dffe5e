import { describe, expect, it } from 'vitest';
import { decodePageBytes, readablePage } from '../../src/import/page.js';

const URL_OF_PAGE = 'https://site.example.com/blog/2024/post.html';

const paragraph = (n: number) =>
  `<p>Paragraph ${n} of the article: the river ran high that spring, and the ferry kept to the far bank until the water fell, which took most of April and half of May.</p>`;

/** An article with everything a real page puts around it. */
const CLUTTERED = `<!DOCTYPE html>
<html lang="en"><head>
<meta charset="utf-8"><title>Spring on the river | The Site</title><meta name="author" content="Rae Writer">
<style>.STYLE_RULE_7f3a { color: red }</style>
<script>window.TRACKER_SCRIPT_7f3a = true;</script>
</head><body>
<div id="cookie-banner" class="cookie-consent">COOKIE_BANNER_7f3a: we use cookies. <button>Accept</button></div>
<header><nav><a href="/">NAV_HOME_7f3a</a> <a href="/about">About</a> <a href="/archive">Archive</a></nav></header>
<main><article>
<h1>Spring on the river</h1>
<h2>When the water came</h2>
${paragraph(1)}${paragraph(2)}
<p>The timetable is on <a href="../../ferry/timetable">the ferry page</a>, with <img src="img/ferry.jpg" alt="the ferry">.</p>
<script>document.write('INLINE_SCRIPT_7f3a')</script>
${paragraph(3)}${paragraph(4)}
</article></main>
<aside class="sidebar"><h3>Related</h3><ul><li><a href="/r/1">SIDEBAR_LINK_7f3a</a></li><li><a href="/r/2">Another</a></li></ul></aside>
<footer><p>FOOTER_7f3a © 2024</p></footer>
</body></html>`;

describe('readablePage: the article of a page with clutter around it', () => {
  const page = readablePage(CLUTTERED, URL_OF_PAGE);
  it.each([
    ['its first paragraph', 'Paragraph 1 of the article: the river ran high that spring'],
    ['its last paragraph', 'Paragraph 4 of the article'],
    ['its heading', '## When the water came'],
    ['its link, made absolute', '[the ferry page](https://site.example.com/ferry/timetable)'],
    ['its image, made absolute', '![the ferry](https://site.example.com/blog/2024/img/ferry.jpg)'],
  ])('keeps %s', (_what, text) => {
    expect(page.markdown).toContain(text);
  });
  it.each([
    ['the navigation', 'NAV_HOME_7f3a'],
    ['the sidebar', 'SIDEBAR_LINK_7f3a'],
    ['the footer', 'FOOTER_7f3a'],
    ['the cookie banner', 'COOKIE_BANNER_7f3a'],
    ['a script in the head', 'TRACKER_SCRIPT_7f3a'],
    ['a script in the article', 'INLINE_SCRIPT_7f3a'],
    ['the style sheet', 'STYLE_RULE_7f3a'],
  ])('drops %s', (_what, text) => {
    expect(page.markdown).not.toContain(text);
  });
  it('has the title and byline', () => {
    expect(page.title).toContain('Spring on the river');
    expect(page.byline).toBe('Rae Writer');
    expect(page.excerpt).toContain('Paragraph 1');
  });
});

describe('readablePage: a page with no article still yields its text', () => {
  const cases: [string, string, { title?: string; has: string[]; hasNot: string[] }][] = [
    [
      'a short page',
      `<!doctype html><html><head><title>Opening hours &amp; prices</title><meta name="description" content="When we are open."></head><body>
       <nav><a href="/">SHORT_NAV_91c</a></nav><p>Open daily from nine to five. See <a href="prices">the prices</a>.</p>
       <script>SHORT_SCRIPT_91c()</script><aside>SHORT_ASIDE_91c</aside><footer>SHORT_FOOTER_91c</footer></body></html>`,
      { title: 'Opening hours & prices', has: ['Open daily from nine to five.', '[the prices](https://site.example.com/blog/2024/prices)'], hasNot: ['SHORT_NAV_91c', 'SHORT_SCRIPT_91c', 'SHORT_ASIDE_91c', 'SHORT_FOOTER_91c'] },
    ],
    [
      'a page without <html>, <head> or <body>',
      '<!doctype html><title>Bare</title><p>Only <b>this</b> line.</p><div class="cookie-notice">BARE_COOKIE_91c</div><style>BARE_STYLE_91c</style>',
      { title: 'Bare', has: ['Only **this** line.'], hasNot: ['BARE_COOKIE_91c', 'BARE_STYLE_91c', 'Bare'] },
    ],
    ['a bare fragment', 'Hello <p>there</p>', { has: ['Hello', 'there'], hasNot: [] }],
    ['an empty document', '', { has: [], hasNot: [] }],
    [
      'a page with markup between </head> and <body>',
      '<html><head><title>T</title></head><script>BETWEEN_SCRIPT_91c</script><body><p>In the body.</p></body></html>',
      { title: 'T', has: ['In the body.'], hasNot: ['BETWEEN_SCRIPT_91c'] },
    ],
    [
      'a page titled only by its heading',
      '<html><body><h1>Heading &amp; title</h1><p>Some text.</p></body></html>',
      { title: 'Heading & title', has: ['# Heading & title', 'Some text.'], hasNot: [] },
    ],
  ];
  it.each(cases)('%s', (_what, html, { title, has, hasNot }) => {
    const page = readablePage(html, URL_OF_PAGE);
    expect(page.title).toBe(title);
    for (const text of has) expect(page.markdown).toContain(text);
    for (const text of hasNot) expect(page.markdown).not.toContain(text);
  });

  it('takes the byline and excerpt from the meta tags', () => {
    const page = readablePage('<html><head><title>x</title><meta name="author" content="Al"><meta property="og:description" content="About it."></head><body><p>Short.</p></body></html>', URL_OF_PAGE);
    expect(page).toEqual({ title: 'x', markdown: 'Short.', byline: 'Al', excerpt: 'About it.' });
  });
});

describe('readablePage: links', () => {
  const cases: [string, string, string, string[]][] = [
    ['relative to the page', '<p><a href="next.html">next</a> <a href="/top">top</a> <a href="#part">part</a></p>', URL_OF_PAGE, ['[next](https://site.example.com/blog/2024/next.html)', '[top](https://site.example.com/top)', '[part](https://site.example.com/blog/2024/post.html#part)']],
    ['relative to its <base>', '<html><head><base href="https://cdn.example.net/docs/"></head><body><p><a href="a.html">a</a></p></body></html>', URL_OF_PAGE, ['[a](https://cdn.example.net/docs/a.html)']],
    ['a relative <base>', '<html><head><base href="/other/"></head><body><p><a href="a.html">a</a></p></body></html>', URL_OF_PAGE, ['[a](https://site.example.com/other/a.html)']],
    ['a javascript: link keeps its text only', '<p><a href="javascript:alert(1)">click</a></p>', URL_OF_PAGE, ['click']],
  ];
  it.each(cases)('%s', (_what, html, url, expected) => {
    const { markdown } = readablePage(html, url);
    for (const text of expected) expect(markdown).toContain(text);
    expect(markdown).not.toContain('javascript:');
  });

  it('makes links in a found article absolute too', () => {
    expect(readablePage(CLUTTERED, 'https://mirror.example.org/a/b/c.html').markdown).toContain('[the ferry page](https://mirror.example.org/ferry/timetable)');
  });
});

/** Text as windows-1252 bytes: Latin-1 plus the characters of 0x80–0x9F used here. */
function windows1252(text: string): Buffer {
  const high: Record<string, number> = { '€': 0x80, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '–': 0x96, '—': 0x97 };
  return Buffer.from(Array.from(text, (char) => high[char] ?? char.charCodeAt(0)));
}

describe('decodePageBytes: the charset from the header, a <meta> in the first 2 KB, else UTF-8', () => {
  const FANCY = '“Crème brûlée” – 4 €';
  const page = (head: string) => `<html><head>${head}<title>${FANCY}</title></head><body><p>${FANCY}</p></body></html>`;
  const cases: [string, Buffer, string | undefined, string][] = [
    ['<meta charset>', windows1252(page('<meta charset="windows-1252">')), undefined, page('<meta charset="windows-1252">')],
    ['<meta charset> unquoted, as iso-8859-1', windows1252(page('<meta charset=ISO-8859-1>')), 'text/html', page('<meta charset=ISO-8859-1>')],
    ['<meta http-equiv=Content-Type>', windows1252(page('<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">')), undefined, page('<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">')],
    ['<meta content> before http-equiv', windows1252(page('<meta content="text/html; charset=windows-1252" http-equiv="content-type">')), undefined, page('<meta content="text/html; charset=windows-1252" http-equiv="content-type">')],
    ['the header over <meta>', Buffer.from(page('<meta charset="windows-1252">')), 'text/html; charset=UTF-8', page('<meta charset="windows-1252">')],
    ['the header alone', windows1252(page('')), 'text/html; charset=windows-1252', page('')],
    ['a commented-out <meta> does not count', Buffer.from(page('<!-- <meta charset="windows-1252"> -->')), undefined, page('<!-- <meta charset="windows-1252"> -->')],
    ['a <meta> past the first 2 KB does not count', Buffer.from(`${' '.repeat(2100)}${page('<meta charset="windows-1252">')}`), undefined, `${' '.repeat(2100)}${page('<meta charset="windows-1252">')}`],
    ['content="charset=…" without http-equiv does not count', Buffer.from(page('<meta name="x" content="charset=windows-1252">')), undefined, page('<meta name="x" content="charset=windows-1252">')],
    ['nothing said: UTF-8', Buffer.from(page('')), undefined, page('')],
  ];
  it.each(cases)('%s', (_what, bytes, contentType, expected) => {
    expect(decodePageBytes(bytes, contentType)).toBe(expected);
  });

  it('reads a windows-1252 page end to end', () => {
    const html = `<!doctype html><html><head><meta charset="windows-1252"><title>Caf\u00e9 “menu”</title></head><body><p>It’s “fine” – 3 € — na\u00efve.</p></body></html>`;
    const result = readablePage(decodePageBytes(windows1252(html), 'text/html'), URL_OF_PAGE);
    expect(result).toEqual({ title: 'Café “menu”', markdown: 'It’s “fine” – 3 € — naïve.' });
  });
});
