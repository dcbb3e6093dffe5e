import { describe, expect, it } from 'vitest';
import { decodeFeedBytes, FeedError, parseFeedDocument, type FeedArticle } from '../../src/import/feed.js';

const FEED_URL = 'https://news.example.com/blog/feed.xml';

const rss = (items: string, channel = '<title>Example &amp; Co</title><link>https://news.example.com/</link><description>News</description>') =>
  `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel>${channel}${items}</channel></rss>`;

const atom = (entries: string, feed = '<title>Atom News</title><link rel="self" href="https://atom.example.com/feed"/><link href="https://atom.example.com/"/>') =>
  `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><id>urn:uuid:feed</id><updated>2024-03-01T00:00:00Z</updated>${feed}${entries}</feed>`;

const json = (items: unknown[], feed: Record<string, unknown> = { title: 'JSON News', home_page_url: 'https://json.example.com/' }) =>
  JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', ...feed, items });

const rdf = (items: string) => `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="https://rdf.example.com/"><title>RDF News</title><link>https://rdf.example.com/</link><description>x</description></channel>
${items}</rdf:RDF>`;

const articles = (text: string): FeedArticle[] => parseFeedDocument(text, FEED_URL).articles;

describe('parseFeedDocument: each item as an article', () => {
  const cases: [string, string, Partial<FeedArticle>[]][] = [
    [
      'RSS: guid as key, content:encoded over description, pubDate',
      rss(`<item><title>First</title><link>https://news.example.com/posts/1</link><guid>https://news.example.com/?p=1</guid>
        <pubDate>Tue, 10 Jun 2003 04:00:00 GMT</pubDate><description>The short version</description>
        <content:encoded><![CDATA[<p>The <strong>full</strong> story.</p>]]></content:encoded><dc:creator>Ann Author</dc:creator></item>`),
      [{ key: 'https://news.example.com/?p=1', url: 'https://news.example.com/posts/1', title: 'First', date: new Date('2003-06-10T04:00:00Z'), body: 'The **full** story.', author: 'Ann Author' }],
    ],
    [
      'RSS: a guid with isPermaLink="false" is a key, not an address',
      rss('<item><title>Tagged</title><guid isPermaLink="false">https://news.example.com/not-a-page</guid><description>x</description></item>'),
      [{ key: 'https://news.example.com/not-a-page', url: undefined, title: 'Tagged' }],
    ],
    [
      'RSS: a permalink guid is the address when there is no link',
      rss('<item><title>Perma</title><guid>https://news.example.com/perma</guid></item>'),
      [{ key: 'https://news.example.com/perma', url: 'https://news.example.com/perma', body: '' }],
    ],
    [
      'RSS: a non-URL guid is only a key',
      rss('<item><title>Numbered</title><guid>42</guid></item>'),
      [{ key: '42', url: undefined }],
    ],
    [
      'RSS: a relative link, resolved against the feed address, is the key without a guid',
      rss('<item><title>Relative</title><link>../posts/2</link><description>&lt;p&gt;See &lt;a href="more"&gt;more&lt;/a&gt;&lt;/p&gt;</description></item>'),
      [{ key: 'https://news.example.com/posts/2', url: 'https://news.example.com/posts/2', body: 'See [more](https://news.example.com/posts/more)' }],
    ],
    [
      'RSS: an item with only a description takes its title from it, and a hash as key',
      rss('<item><description>&lt;p&gt;Nothing but a description, long enough to run well past the eighty characters a title may have.&lt;/p&gt;</description></item>'),
      [{ title: 'Nothing but a description, long enough to run well past the eighty characters…', url: undefined, date: undefined, key: expect.stringMatching(/^sha256-/) as never }],
    ],
    [
      'RSS: entities and tags in titles',
      rss(`<item><title>Fish &amp;amp; chips &lt;b&gt;fried&lt;/b&gt; &#8217;til late &eacute;</title><link>https://news.example.com/a</link></item>
        <item><title><![CDATA[CDATA <i>title</i> &amp; more]]></title><link>https://news.example.com/b</link></item>`),
      [{ title: 'Fish & chips fried ’til late é' }, { title: 'CDATA title & more' }],
    ],
    [
      'RSS: scripts in content are dropped',
      rss('<item><title>S</title><link>https://news.example.com/s</link><content:encoded><![CDATA[<p>Safe</p><script>alert("RSS_SCRIPT")</script>]]></content:encoded></item>'),
      [{ body: 'Safe' }],
    ],
    [
      'RSS: an unparsable date is no date; the author element when there is no dc:creator',
      rss('<item><title>D</title><link>https://news.example.com/d</link><pubDate>sometime soon</pubDate><author>bob@example.com (Bob B)</author></item>'),
      [{ date: undefined, author: 'Bob B' }],
    ],
    [
      'RSS: items with no title, link or content are skipped',
      rss('<item><guid isPermaLink="false">only-an-id</guid></item><item><title>Kept</title></item><item><link>https://news.example.com/link-only</link></item>'),
      [{ key: expect.stringMatching(/^sha256-[0-9a-f]{64}$/) as never, title: 'Kept' }, { title: 'Untitled', url: 'https://news.example.com/link-only' }],
    ],
    [
      'Atom: id, rel=alternate over rel=self, content type=html, published over updated, the feed author',
      atom(`<author><name>Feed Person</name></author>
        <entry><id>urn:uuid:e1</id><title type="html">A &amp;amp; B</title><link rel="self" href="/self/1"/><link rel="alternate" type="text/html" href="/posts/e1"/>
        <published>2024-01-01T10:00:00Z</published><updated>2024-02-02T00:00:00Z</updated>
        <summary>Short</summary><content type="html">&lt;h2&gt;Part&lt;/h2&gt;&lt;p&gt;Hello &lt;a href="rel"&gt;there&lt;/a&gt;&lt;/p&gt;</content></entry>`),
      [{ key: 'urn:uuid:e1', url: 'https://news.example.com/posts/e1', title: 'A & B', date: new Date('2024-01-01T10:00:00Z'), body: '## Part\n\nHello [there](https://news.example.com/posts/rel)', author: 'Feed Person' }],
    ],
    [
      'Atom: summary only, a link without rel, updated when not published, text kept as text',
      atom(`<entry><id>urn:uuid:e2</id><title>Less &lt;than&gt; more</title><link href="https://atom.example.com/e2"/><updated>2024-02-02T00:00:00Z</updated>
        <summary type="text">Only a summary, with &lt;b&gt; as text.</summary><author><name>Zed</name></author></entry>`),
      [{ key: 'urn:uuid:e2', url: 'https://atom.example.com/e2', title: 'Less <than> more', date: new Date('2024-02-02T00:00:00Z'), body: 'Only a summary, with \\<b> as text.', author: 'Zed' }],
    ],
    [
      'Atom: xhtml content and title',
      atom(`<entry><id>urn:uuid:e3</id><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">X<b>H</b>TML</div></title><updated>2024-02-02T00:00:00Z</updated>
        <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Some <em>xhtml</em></p></div></content></entry>`),
      [{ key: 'urn:uuid:e3', title: 'XHTML', body: 'Some *xhtml*', url: undefined }],
    ],
    [
      'JSON Feed: id, relative url, content_html over content_text, date_published',
      json([{ id: 'j1', url: '/posts/j1', title: 'JSON one', content_html: '<p>Rich <a href="x">link</a></p>', content_text: 'Plain', date_published: '2020-01-01T00:00:00Z', date_modified: '2021-01-01T00:00:00Z', authors: [{ name: 'Jay' }] }]),
      [{ key: 'j1', url: 'https://news.example.com/posts/j1', title: 'JSON one', body: 'Rich [link](https://news.example.com/posts/x)', date: new Date('2020-01-01T00:00:00Z'), author: 'Jay' }],
    ],
    [
      'JSON Feed: content_text tidied, a title from it, date_modified, a numeric id',
      json([{ id: 7, content_text: 'Just text,   \n\n\n\nin two paragraphs.', date_modified: '2021-05-05T05:05:05Z' }]),
      [{ key: '7', title: 'Just text, in two paragraphs.', body: 'Just text,\n\nin two paragraphs.', date: new Date('2021-05-05T05:05:05Z'), url: undefined }],
    ],
    [
      'JSON Feed: an item with only an id is skipped; entities in a title decoded',
      json([{ id: 'empty' }, { id: 'e', title: 'Caf&eacute; &amp; <b>bar</b>', url: 'https://json.example.com/e' }]),
      [{ key: 'e', title: 'Café & <b>bar</b>' }],
    ],
    [
      'RSS 1.0 (RDF): rdf:about as key, dc:date, dc:creator',
      rdf(`<item rdf:about="https://rdf.example.com/1"><title>RDF one</title><link>https://rdf.example.com/1.html</link><description>&lt;p&gt;Desc&lt;/p&gt;</description>
        <dc:date>2004-05-06T07:08:09Z</dc:date><dc:creator>Cee</dc:creator></item>`),
      [{ key: 'https://rdf.example.com/1', url: 'https://rdf.example.com/1.html', title: 'RDF one', body: 'Desc', date: new Date('2004-05-06T07:08:09Z'), author: 'Cee' }],
    ],
    [
      'RSS podcast: the enclosure kept as a link with its type, size and the iTunes duration; a relative one made absolute',
      rss(
        `<item><title>Episode 12</title><guid isPermaLink="false">ep12</guid><description>&lt;p&gt;Show notes.&lt;/p&gt;</description>
        <enclosure url="https://cdn.example.com/audio/episode-12.mp3" length="12345678" type="audio/mpeg"/><itunes:duration>42:10</itunes:duration></item>
        <item><title>Episode 13</title><guid isPermaLink="false">ep13</guid><enclosure url="/audio/ep%2013 (final).m4a" length="0" type="audio/x-m4a"/></item>`,
      ).replace('<rss version="2.0"', '<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"'),
      [
        { key: 'ep12', body: 'Enclosure: [episode-12.mp3](https://cdn.example.com/audio/episode-12.mp3) (audio/mpeg, 12 MB, 42 min)\n\nShow notes.' },
        { key: 'ep13', body: 'Enclosure: [ep 13 \\(final\\).m4a](https://news.example.com/audio/ep%2013%20%28final%29.m4a) (audio/x-m4a)' },
      ],
    ],
    [
      'RSS: only web addresses are kept as enclosures, each once',
      rss(
        `<item><title>Odd files</title><guid isPermaLink="false">odd</guid><enclosure url="javascript:alert(1)" length="1" type="audio/mpeg"/><enclosure url="ftp://files.example.com/a.mp3" length="1" type="audio/mpeg"/>
        <enclosure url="data:audio/mpeg;base64,AAAA" type="audio/mpeg"/><enclosure url="http://files.example.com/a.ogg" type="audio/ogg"/><enclosure url="http://files.example.com/a.ogg" type="audio/ogg"/></item>`,
      ),
      [{ key: 'odd', body: 'Enclosure: [a.ogg](http://files.example.com/a.ogg) (audio/ogg)' }],
    ],
    [
      'Atom: link rel="enclosure" with its title and length',
      atom(`<entry><id>urn:uuid:ep1</id><title>Talk</title><updated>2024-03-01T00:00:00Z</updated><summary>Slides and audio.</summary>
        <link rel="enclosure" type="video/mp4" length="734003200" title="The talk [1080p] #video" href="https://atom.example.com/talk.mp4"/></entry>`),
      [{ key: 'urn:uuid:ep1', body: 'Enclosure: [The talk \\[1080p\\] \\#video](https://atom.example.com/talk.mp4) (video/mp4, 734 MB)\n\nSlides and audio.' }],
    ],
    [
      'JSON Feed: attachments, with size and duration',
      json([{ id: 'p1', title: 'Pod one', content_text: 'Notes.', attachments: [{ url: 'https://json.example.com/p1.mp3', mime_type: 'audio/mpeg', size_in_bytes: 850000, duration_in_seconds: 3900 }] }]),
      [{ key: 'p1', body: 'Enclosure: [p1.mp3](https://json.example.com/p1.mp3) (audio/mpeg, 850 KB, 1 h 5 min)\n\nNotes.' }],
    ],
  ];
  it.each(cases)('%s', (_what, text, expected) => {
    const got = articles(text);
    expect(got).toHaveLength(expected.length);
    // Only the fields a case names are compared; one named as undefined must be absent.
    const picked = got.map((article, index) => Object.fromEntries(Object.keys(expected[index] ?? {}).map((field) => [field, article[field as keyof FeedArticle]])));
    expect(picked).toEqual(expected);
  });

  it('gives an item without id or link the same hash key each time, and a different one for different content', () => {
    const item = (body: string) => rss(`<item><description>${body}</description></item>`);
    const [a] = articles(item('one'));
    const [again] = articles(item('one'));
    const [b] = articles(item('two'));
    expect(a?.key).toMatch(/^sha256-[0-9a-f]{64}$/);
    expect(again?.key).toBe(a?.key);
    expect(b?.key).not.toBe(a?.key);
  });
});

describe('parseFeedDocument: the feed itself', () => {
  const cases: [string, string, { title: string; format: string; siteUrl?: string }][] = [
    ['RSS', rss(''), { title: 'Example & Co', format: 'rss', siteUrl: 'https://news.example.com/' }],
    ['Atom', atom(''), { title: 'Atom News', format: 'atom', siteUrl: 'https://atom.example.com/' }],
    ['JSON Feed', json([]), { title: 'JSON News', format: 'json', siteUrl: 'https://json.example.com/' }],
    ['RDF', rdf(''), { title: 'RDF News', format: 'rdf', siteUrl: 'https://rdf.example.com/' }],
    ['a title trimmed', rss('', '<title>  Spaced\n Out  </title>'), { title: 'Spaced Out', format: 'rss' }],
    ['no title: the host', rss('', '<link>/</link><description>x</description>'), { title: 'news.example.com', format: 'rss', siteUrl: 'https://news.example.com/' }],
    ['a BOM before the declaration', `\uFEFF${rss('')}`, { title: 'Example & Co', format: 'rss', siteUrl: 'https://news.example.com/' }],
  ];
  it.each(cases)('%s', (_what, text, expected) => {
    const { articles: _articles, ...feed } = parseFeedDocument(text, FEED_URL);
    expect(feed).toEqual(expected);
  });
});

describe('parseFeedDocument: what is not a feed is refused in a sentence', () => {
  const HTML = 'The address does not serve a feed: it returned an HTML page, not RSS, Atom or JSON Feed.';
  const cases: [string, string, string | RegExp][] = [
    ['an HTML page', '<!DOCTYPE html>\n<html lang="en"><head><title>Blog</title><link rel="alternate" type="application/rss+xml" href="/feed"></head><body><p>Hi</p></body></html>', HTML],
    ['an HTML page without a doctype', '<html><head><title>x</title></head><body>x</body></html>', HTML],
    ['an XHTML page', '<?xml version="1.0"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x"><html xmlns="http://www.w3.org/1999/xhtml"><body/></html>', HTML],
    ['a page without an <html> tag', '<!-- generated --><head><title>x</title></head><body><div>Welcome</div></body>', HTML],
    ['garbage', 'hello, world', /^The feed could not be read: /],
    ['nothing', '  \n', /^The feed could not be read: /],
    ['broken XML', '<rss version="2.0"><channel><title>x</title><item><title>a</item></channel>', /^The feed could not be read: /],
    ['XML that is not a feed', '<?xml version="1.0"?><note><to>x</to></note>', /^The feed could not be read: /],
    ['JSON that is not a feed', '{"hello": "world"}', /^The feed could not be read: /],
    ['an RSS root with no channel', '<rss version="2.0"></rss>', /^The feed could not be read: /],
  ];
  it.each(cases)('%s', (_what, text, message) => {
    let error: unknown;
    try {
      parseFeedDocument(text, FEED_URL);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FeedError);
    const sentence = (error as FeedError).message;
    if (typeof message === 'string') expect(sentence).toBe(message);
    else expect(sentence).toMatch(message);
    expect(sentence).not.toMatch(/\n|Error|Unrecognized|Invalid feed format/);
  });
});

/** Text as windows-1252 bytes: Latin-1 plus the characters of 0x80–0x9F used here. */
function windows1252(text: string): Buffer {
  const high: Record<string, number> = { '€': 0x80, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '–': 0x96, '—': 0x97 };
  return Buffer.from(Array.from(text, (char) => high[char] ?? char.charCodeAt(0)));
}

describe('decodeFeedBytes: the charset from the header, the XML declaration, a BOM, else UTF-8', () => {
  const FANCY = '“Café” – 5 €';
  const declared = (encoding: string) => `<?xml version="1.0" encoding="${encoding}"?><rss version="2.0"><channel><title>${FANCY}</title></channel></rss>`;
  const plain = `<rss version="2.0"><channel><title>${FANCY}</title></channel></rss>`;
  const cases: [string, Buffer, string | undefined, string][] = [
    ['windows-1252 from the XML declaration', windows1252(declared('windows-1252')), 'application/rss+xml', declared('windows-1252')],
    ['windows-1252 from the Content-Type', windows1252(plain), 'application/rss+xml; charset=windows-1252', plain],
    ['iso-8859-1 read as the web reads it (windows-1252)', windows1252(plain), 'text/xml; charset="ISO-8859-1"', plain],
    ['the header over the declaration', Buffer.from(declared('windows-1252')), 'application/xml; charset=utf-8', declared('windows-1252')],
    ['a UTF-8 BOM over a wrong header', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(plain)]), 'text/xml; charset=iso-8859-1', plain],
    ['a UTF-16LE BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(plain, 'utf16le')]), undefined, plain],
    ['koi8-r from the declaration', Buffer.concat([Buffer.from('<?xml version="1.0" encoding="koi8-r"?><t>'), Buffer.from([0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4]), Buffer.from('</t>')]), undefined, '<?xml version="1.0" encoding="koi8-r"?><t>Привет</t>'],
    ['shift_jis from the header', Buffer.from([0x82, 0xa0, 0x82, 0xa2]), 'application/json; charset=Shift_JIS', 'あい'],
    ['an unknown charset is UTF-8', Buffer.from(plain), 'text/xml; charset=x-no-such-thing', plain],
    ['a UTF-16 declaration readable as ASCII is UTF-8', Buffer.from(declared('UTF-16')), undefined, declared('UTF-16')],
    ['nothing said: UTF-8', Buffer.from(plain), undefined, plain],
  ];
  it.each(cases)('%s', (_what, bytes, contentType, expected) => {
    expect(decodeFeedBytes(bytes, contentType)).toBe(expected);
  });

  it('reads a windows-1252 feed end to end', () => {
    const bytes = windows1252(
      rss(`<item><title>It’s “quoted” – 10 €</title><link>https://news.example.com/q</link><description>Caf&#233; — na&#239;ve “and” ’</description></item>`, '<title>Caf\u00e9 “News”</title>').replace(
        'encoding="utf-8"',
        'encoding="windows-1252"',
      ),
    );
    const feed = parseFeedDocument(decodeFeedBytes(bytes), FEED_URL);
    expect(feed.title).toBe('Café “News”');
    expect(feed.articles[0]).toEqual(expect.objectContaining({ title: 'It’s “quoted” – 10 €', body: 'Café — naïve “and” ’' }));
  });
});
