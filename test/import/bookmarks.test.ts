import { describe, expect, it } from 'vitest';
import { bookmarkDate, bookmarkTags, bookmarkUrl, folderTag, parseBookmarks } from '../../src/import/bookmarks.js';

describe('folderTag: a browser folder path as a nested tag', () => {
  const cases: [string, string[], string | undefined][] = [
    ['one folder', ['Reading'], 'reading'],
    ['spaces and case', ['Dev Tools'], 'dev-tools'],
    ['nested', ['Dev Tools', 'Web'], 'dev-tools/web'],
    ['symbols between words', ['Rust / C++ & Go'], 'rust-c-go'],
    ['letters of any script', ['Küche', '日本語'], 'küche/日本語'],
    ['a dash kept, runs collapsed', ['to--read -- later'], 'to-read-later'],
    ['only symbols: left out', ['★★★'], undefined],
    ['a level of symbols dropped', ['Work', '★', 'Plans'], 'work/plans'],
    ['digits alone are no tag', ['2024'], undefined],
    ['digits under a word are', ['Trips', '2024'], 'trips/2024'],
    ['no folders', [], undefined],
  ];
  it.each(cases)('%s', (_name, folders, expected) => {
    expect(folderTag(folders)).toBe(expected);
  });
});

describe('bookmarkDate: ADD_DATE in the units browsers write', () => {
  const cases: [string, string | undefined, string | undefined][] = [
    ['seconds', '1700000000', '2023-11-14T22:13:20.000Z'],
    ['milliseconds', '1700000000123', '2023-11-14T22:13:20.123Z'],
    ['microseconds', '1700000000123456', '2023-11-14T22:13:20.123Z'],
    ['zero means unknown', '0', undefined],
    ['not a number', 'yesterday', undefined],
    ['missing', undefined, undefined],
  ];
  it.each(cases)('%s', (_name, value, expected) => {
    expect(bookmarkDate(value)?.toISOString()).toBe(expected);
  });
});

describe('bookmarkUrl: only web pages are bookmarks', () => {
  const cases: [string, string | undefined][] = [
    ['https://example.com', 'https://example.com/'],
    ['  http://example.com/a b  ', 'http://example.com/a%20b'],
    ['javascript:alert(1)', undefined],
    ['place:sort=8&maxResults=10', undefined],
    ['file:///home/me/notes.txt', undefined],
    ['about:blank', undefined],
    ['not a url', undefined],
  ];
  it.each(cases)('%s', (href, expected) => {
    expect(bookmarkUrl(href)).toBe(expected);
  });
});

describe('parseBookmarks: the Netscape export of each browser', () => {
  it("reads Chrome's export: the bar is a container, nested folders become paths", () => {
    const { bookmarks, skipped } = parseBookmarks(`<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
    <DT><H3 ADD_DATE="1" LAST_MODIFIED="2" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks bar</H3>
    <DL><p>
        <DT><A HREF="https://a.example/" ADD_DATE="1700000000" ICON="data:image/png;base64,AAAA">A &amp; B &lt;tags&gt;</A>
        <DT><H3 ADD_DATE="1">Outer</H3>
        <DL><p>
            <DT><H3 ADD_DATE="1">Inner</H3>
            <DL><p>
                <DT><A HREF="https://b.example/deep">Deep</A>
            </DL><p>
            <DT><A HREF="https://c.example/">After inner</A>
        </DL><p>
    </DL><p>
    <DT><H3>Other bookmarks</H3>
    <DL><p>
        <DT><A HREF="javascript:void(0)">Bookmarklet</A>
        <DT><A HREF="https://d.example/">Loose</A>
    </DL><p>
</DL><p>`);
    expect(skipped).toBe(1);
    expect(bookmarks.map((bookmark) => [bookmark.url, bookmark.title, bookmark.folders])).toEqual([
      ['https://a.example/', 'A & B <tags>', []],
      ['https://b.example/deep', 'Deep', [['Outer', 'Inner']]],
      ['https://c.example/', 'After inner', [['Outer']]],
      ['https://d.example/', 'Loose', []],
    ]);
    expect(bookmarks[0]?.added?.toISOString()).toBe('2023-11-14T22:13:20.000Z');
  });

  it("reads Firefox's export: TAGS, descriptions, its menu and unfiled containers", () => {
    const { bookmarks } = parseBookmarks(`<!DOCTYPE NETSCAPE-Bookmark-file-1>
<H1>Bookmarks Menu</H1>
<DL><p>
    <DT><H3 ADD_DATE="1" LAST_MODIFIED="2">Recipes</H3>
    <DL><p>
        <DT><A HREF="https://food.example/bread" ADD_DATE="1600000000" LAST_MODIFIED="1600000001" TAGS="baking,Sourdough Starter">Bread</A>
        <DD>Hydration table;
        worth re-reading.
    </DL><p>
    <DT><H3 ADD_DATE="1" LAST_MODIFIED="2" UNFILED_BOOKMARKS_FOLDER="true">Other Bookmarks</H3>
    <DL><p>
        <DT><A HREF="https://x.example/">X</A>
    </DL><p>
</DL>`);
    expect(bookmarks).toEqual([
      { url: 'https://food.example/bread', title: 'Bread', added: new Date(1_600_000_000_000), folders: [['Recipes']], tags: ['baking', 'Sourdough Starter'], description: 'Hydration table;\nworth re-reading.' },
      { url: 'https://x.example/', title: 'X', folders: [], tags: [] },
    ]);
    expect(bookmarkTags(bookmarks[0] as (typeof bookmarks)[number])).toEqual(['recipes', 'baking', 'sourdough-starter']);
  });

  it("gives a folder's <DD> to no bookmark: Firefox describes its toolbar so in every export", () => {
    // The shape of a Firefox export (Places' BookmarkHTMLUtils): the menu's folders, then a <HR>,
    // the toolbar folder with its own <DD>, and the unfiled folder.
    const { bookmarks } = parseBookmarks(`<!DOCTYPE NETSCAPE-Bookmark-file-1>
<!-- This is an automatically generated file.
     It will be read and overwritten.
     DO NOT EDIT! -->
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<meta http-equiv="Content-Security-Policy"
      content="default-src 'self'; script-src 'none'; img-src data: *; object-src 'none'"></meta>
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks Menu</H1>

<DL><p>
    <DT><H3 ADD_DATE="1700000000" LAST_MODIFIED="1700000100">Mozilla Firefox</H3>
    <DL><p>
        <DT><A HREF="https://support.mozilla.org/products/firefox" ADD_DATE="1700000000" LAST_MODIFIED="1700000000">Get Help</A>
        <DT><A HREF="https://www.mozilla.org/about/" ADD_DATE="1700000000" LAST_MODIFIED="1700000000">About Us</A>
    </DL><p>
    <HR>    <DT><H3 ADD_DATE="1700000000" LAST_MODIFIED="1700000200" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks Toolbar</H3>
    <DD>Add bookmarks to this folder to see them displayed on the Bookmarks Toolbar
    <DL><p>
        <DT><A HREF="https://news.example/" ADD_DATE="1700000300">News</A>
        <DD>Morning reading
        <DT><H3 ADD_DATE="1700000000">Recipes</H3>
        <DD>What we cook on Sundays
        <DL><p>
            <DT><A HREF="https://food.example/bread" ADD_DATE="1700000400">Bread</A>
        </DL><p>
        <DD>A stray description after a folder's end
    </DL><p>
    <DT><H3 ADD_DATE="1700000000" LAST_MODIFIED="1700000000" UNFILED_BOOKMARKS_FOLDER="true">Other Bookmarks</H3>
    <DL><p>
    </DL><p>
</DL>`);
    expect(bookmarks.map((bookmark) => [bookmark.title, bookmark.description])).toEqual([
      ['Get Help', undefined],
      ['About Us', undefined],
      ['News', 'Morning reading'],
      ['Bread', undefined],
    ]);
    expect(bookmarks.map((bookmark) => bookmark.folders)).toEqual([[['Mozilla Firefox']], [['Mozilla Firefox']], [], [['Recipes']]]);
  });

  it('gives a link without text its address as title, and merges a page filed twice', () => {
    const { bookmarks } = parseBookmarks(`<!DOCTYPE NETSCAPE-Bookmark-file-1>
<DL><p>
<DT><H3>One</H3><DL><p><DT><A HREF="https://same.example/" ADD_DATE="1700000000"></A></DL><p>
<DT><H3>Two</H3><DL><p><DT><A HREF="https://same.example/" ADD_DATE="1600000000" TAGS="t">Named later</A></DL><p>
</DL>`);
    expect(bookmarks).toEqual([{ url: 'https://same.example/', title: 'https://same.example/', added: new Date(1_600_000_000_000), folders: [['One'], ['Two']], tags: ['t'] }]);
  });

  it('refuses a file that is not an export, in a sentence', () => {
    expect(() => parseBookmarks('<html><body><p>hello</p></body></html>')).toThrow(/^This is not a browser bookmarks export/);
    expect(() => parseBookmarks('')).toThrow(/^This is not a browser bookmarks export/);
  });
});
