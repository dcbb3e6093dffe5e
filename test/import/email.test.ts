import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmailError, emailSources, formatAddress, looksLikeMbox, parseEmail, readMbox, startsLikeMbox } from '../../src/import/email.js';
import { extractTags } from '../../src/format/markdown/analyze.js';
import type { EmailMessage, EmailSource } from '../../src/import/email.js';
import { removeDir } from '../support/helpers.js';

/** Header lines and a body joined with CRLF, as mail travels; `latin1` keeps `\xNN` escapes as single bytes. */
function mail(headers: string[], body: string, eol = '\r\n'): Buffer {
  return Buffer.from([...headers, '', body].join(eol), 'latin1');
}

const BASE = ['From: Ada Lovelace <ada@example.org>', 'To: bob@example.org', 'Subject: Hello', 'Date: Tue, 05 Mar 2024 10:00:00 +0000', 'Message-ID: <abc.123@example.org>'];
const PDF = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1');

/** Every folder tempDir made, removed after the file's tests. */
const made: string[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dexi-email-'));
  made.push(dir);
  return dir;
}

afterAll(async () => {
  await Promise.all(made.map((dir) => removeDir(dir)));
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('parseEmail: one message as subject, people, date and a Markdown body', () => {
  const cases: [string, Buffer, Partial<EmailMessage>][] = [
    [
      'plain text, tidied',
      mail(BASE, 'Dear Bob,   \r\n\r\n\r\n\r\nThe engine runs.\t\r\n-- \r\nAda\r\n'),
      { subject: 'Hello', from: 'Ada Lovelace <ada@example.org>', to: ['bob@example.org'], cc: [], body: 'Dear Bob,\n\nThe engine runs.\n\\--\nAda', attachmentNames: [], messageId: 'abc.123@example.org' },
    ],
    ['LF line ends work as well', mail(BASE, 'One line.\n', '\n'), { subject: 'Hello', body: 'One line.' }],
    [
      'HTML only: a link and a list, no script, no javascript: address',
      mail(
        [...BASE, 'Content-Type: text/html; charset=utf-8'],
        '<p>See <a href="https://example.org/x">the page</a> and <a href="javascript:alert(1)">this</a>.</p><ul><li>one</li><li>two</li></ul><script>alert(1)</script>',
      ),
      { body: 'See [the page](https://example.org/x) and this.\n\n- one\n- two' },
    ],
    [
      'multipart/alternative prefers the text part',
      mail(
        [...BASE, 'MIME-Version: 1.0', 'Content-Type: multipart/alternative; boundary="alt"'],
        ['--alt', 'Content-Type: text/plain; charset=utf-8', '', 'The plain version.', '--alt', 'Content-Type: text/html; charset=utf-8', '', '<p>The <b>HTML</b> version.</p>', '--alt--', ''].join('\r\n'),
      ),
      { body: 'The plain version.' },
    ],
    [
      'multipart/alternative with an empty text part falls back to the HTML',
      mail(
        [...BASE, 'Content-Type: multipart/alternative; boundary="alt"'],
        ['--alt', 'Content-Type: text/plain', '', ' ', '--alt', 'Content-Type: text/html', '', '<h2>Only here</h2>', '--alt--', ''].join('\r\n'),
      ),
      { body: '## Only here' },
    ],
    [
      'multipart/mixed with a base64 PDF and an RFC 2231 file name',
      mail(
        [...BASE, 'MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="mix"'],
        [
          '--mix',
          'Content-Type: text/plain; charset=utf-8',
          '',
          'Report attached.',
          '--mix',
          'Content-Type: application/pdf; name="report.pdf"',
          'Content-Disposition: attachment; filename="report.pdf"',
          'Content-Transfer-Encoding: base64',
          '',
          PDF.toString('base64'),
          '--mix',
          'Content-Type: application/pdf',
          "Content-Disposition: attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf",
          'Content-Transfer-Encoding: base64',
          '',
          PDF.toString('base64'),
          '--mix--',
          '',
        ].join('\r\n'),
      ),
      { body: 'Report attached.', attachmentNames: ['report.pdf', 'résumé.pdf'] },
    ],
    [
      'images the HTML shows are no attachments, named or not',
      mail(
        [...BASE, 'Content-Type: multipart/related; boundary="rel"'],
        [
          '--rel',
          'Content-Type: text/html',
          '',
          '<p>Logo: <img src="cid:logo" alt="logo"> <img src="cid:sig"></p>',
          '--rel',
          'Content-Type: image/png',
          'Content-ID: <logo>',
          'Content-Disposition: inline; filename="image001.png"',
          'Content-Transfer-Encoding: base64',
          '',
          'iVBORw0KGgo=',
          '--rel',
          'Content-Type: image/png',
          'Content-ID: <sig>',
          'Content-Transfer-Encoding: base64',
          '',
          'iVBORw0KGgo=',
          '--rel--',
          '',
        ].join('\r\n'),
      ),
      { body: 'Logo:', attachmentNames: [] },
    ],
    [
      "a forwarded message's body is shown but its attachments are not this message's",
      mail(
        [...BASE, 'Content-Type: multipart/mixed; boundary="outer"'],
        [
          '--outer',
          'Content-Type: text/plain',
          '',
          'See below.',
          '--outer',
          'Content-Type: message/rfc822',
          '',
          'From: carol@example.org',
          'Subject: Inner',
          'Content-Type: multipart/mixed; boundary="inner"',
          '',
          '--inner',
          'Content-Type: text/plain',
          '',
          'The inner body.',
          '--inner',
          'Content-Type: application/pdf; name="inner.pdf"',
          'Content-Disposition: attachment',
          'Content-Transfer-Encoding: base64',
          '',
          PDF.toString('base64'),
          '--inner--',
          '--outer',
          'Content-Type: text/csv; name="own.csv"',
          'Content-Disposition: attachment; filename="own.csv"',
          '',
          'a,b',
          '--outer--',
          '',
        ].join('\r\n'),
      ),
      { subject: 'Hello', attachmentNames: ['own.csv'] },
    ],
    [
      'iso-8859-1, quoted-printable',
      mail([...BASE, 'Content-Type: text/plain; charset=iso-8859-1', 'Content-Transfer-Encoding: quoted-printable'], 'Un caf=E9 cr=E8me, s=\r\nil vous pla=EEt.\r\n'),
      { body: 'Un café crème, sil vous plaît.' },
    ],
    [
      'iso-8859-1, 8bit',
      mail([...BASE, 'Content-Type: text/plain; charset="ISO-8859-1"', 'Content-Transfer-Encoding: 8bit'], 'caf\xe9 \xfcber\r\n'),
      { body: 'café über' },
    ],
    [
      'windows-1252 smart quotes, dash, ellipsis and euro',
      mail([...BASE, 'Content-Type: text/plain; charset=windows-1252', 'Content-Transfer-Encoding: 8bit'], '\x93Quoted\x94 \x96 it\x92s \x805\x85\r\n'),
      { body: '“Quoted” – it’s €5…' },
    ],
    [
      'windows-1252 in encoded words and an attachment name',
      mail(
        ['From: =?windows-1252?Q?=93Ada=94?= <ada@example.org>', 'Subject: =?iso-8859-1?Q?=80100_=96_caf=E9?=', 'Content-Type: multipart/mixed; boundary=b'],
        '--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename="=?windows-1252?Q?=84Bericht=93.pdf?="\r\n\r\nxx\r\n--b--\r\n',
      ),
      { subject: '€100 – café', from: '“Ada” <ada@example.org>', attachmentNames: ['„Bericht“.pdf'] },
    ],
    ['koi8-r', mail([...BASE, 'Content-Type: text/plain; charset=koi8-r'], '\xf0\xd2\xc9\xd7\xc5\xd4, \xcd\xc9\xd2!\r\n'), { body: 'Привет, мир!' }],
    ['iso-2022-jp', mail([...BASE, 'Content-Type: text/plain; charset=ISO-2022-JP', 'Content-Transfer-Encoding: 7bit'], '\x1b$B$3$s$K$A$O\x1b(B\r\n'), { body: 'こんにちは' }],
    ['shift_jis', mail([...BASE, 'Content-Type: text/plain; charset=Shift_JIS'], '\x93\xfa\x96{\x8c\xea\x82\xcc\x83e\x83L\x83X\x83g\r\n'), { body: '日本語のテキスト' }],
    [
      'encoded-word subject and sender name, folded across lines',
      mail(
        ['From: =?UTF-8?Q?Jos=C3=A9_N=C3=BA=C3=B1ez?= <jose@example.org>', 'To: bob@example.org', 'Subject: =?ISO-8859-1?Q?Caf=E9_cr=E8me?=', ' =?UTF-8?B?IOKAlCDml6XmnKw=?='],
        'x',
      ),
      { subject: 'Café crème — 日本', from: 'José Núñez <jose@example.org>' },
    ],
    ['no Subject is an empty subject', mail(['From: ada@example.org'], 'x'), { subject: '', from: 'ada@example.org', to: [] }],
    ['no Date', mail(['From: ada@example.org', 'Subject: Undated'], 'x'), { date: undefined }],
    ['a Date that is no date', mail(['From: ada@example.org', 'Date: sometime soon'], 'x'), { date: undefined }],
    ['Message-ID without brackets', mail(['From: ada@example.org', 'Message-ID:   bare-id@example.org  '], 'x'), { messageId: 'bare-id@example.org' }],
    ['no Message-ID', mail(['From: ada@example.org'], 'x'), { messageId: undefined }],
    [
      'To with two addresses, Cc, and a group',
      mail(['From: ada@example.org', 'To: "Bob, the Builder" <bob@example.org>, carol@example.org', 'Cc: Team: dan@example.org, Eve <eve@example.org>;', 'Cc: frank@example.org'], 'x'),
      { to: ['Bob, the Builder <bob@example.org>', 'carol@example.org'], cc: ['dan@example.org', 'Eve <eve@example.org>', 'frank@example.org'] },
    ],
    ['undisclosed recipients are nobody', mail(['From: ada@example.org', 'To: undisclosed-recipients:;'], 'x'), { to: [] }],
    ['neither text nor HTML', mail(['From: ada@example.org', 'Content-Type: multipart/mixed; boundary=b'], '--b\r\nContent-Type: image/png; name=a.png\r\n\r\nxx\r\n--b--\r\n'), { body: '', attachmentNames: ['a.png'] }],
    ['an mbox envelope line before the headers', Buffer.from('From ada@example.org Tue Mar  5 10:00:00 2024\nSubject: Enveloped\nFrom: ada@example.org\n\nbody\n'), { subject: 'Enveloped', body: 'body' }],
  ];
  it.each(cases)('%s', async (_what, raw, expected) => {
    const message = await parseEmail(raw);
    const entries = Object.entries(expected);
    expect(message).toMatchObject(Object.fromEntries(entries.filter(([, value]) => value !== undefined)));
    // Absent means left out, not set to undefined, so that spreading a message never overwrites with nothing.
    for (const [key] of entries.filter(([, value]) => value === undefined)) expect(message).not.toHaveProperty(key);
  });

  it('reads a multipart message saved without its envelope headers', async () => {
    const raw = Buffer.from('Content-Type: multipart/mixed;\n\tboundary="b"\n\n--b\nContent-Type: text/plain\n\nOnly a body.\n--b--\n');
    const message = await parseEmail(raw);
    expect(message).toMatchObject({ subject: '', to: [], body: 'Only a body.' });
  });

  it('reads the Date as a point in time', async () => {
    const message = await parseEmail(mail(['From: ada@example.org', 'Date: Tue, 05 Mar 2024 11:30:00 +0100'], 'x'));
    expect(message.date?.toISOString()).toBe('2024-03-05T10:30:00.000Z');
  });
});

describe('parseEmail: a plain-text body reads as written, without headings or tags it did not have', () => {
  const body = [
    'Hi Sam,',
    '',
    'Numbers for #launch-week are in; @maria has the sheet.',
    'Results',
    '-------',
    '# of signups: 1,200 (see https://stats.example.com/q3#signups)',
    '',
    '    #include <stdio.h>',
    '',
    'Thanks,',
    '-- ',
    'Alex',
    '',
    '-----Original Message-----',
    'From: Sam <sam@example.com>',
    'Subject: #urgent numbers?',
    '',
    '> Can you send them by <b>Friday</b>?',
    '> #thanks',
  ].join('\r\n');

  it('escapes what would be a heading, a rule, a tag or HTML, and nothing else', async () => {
    const message = await parseEmail(mail([...BASE, 'Content-Type: text/plain; charset=utf-8'], body));
    expect(message.body).toBe(
      [
        'Hi Sam,',
        '',
        'Numbers for \\#launch-week are in; \\@maria has the sheet.',
        'Results',
        '\\-------',
        '\\# of signups: 1,200 (see https://stats.example.com/q3#signups)',
        '',
        '    #include <stdio.h>',
        '',
        'Thanks,',
        '\\--',
        'Alex',
        '',
        '-----Original Message-----',
        'From: Sam <sam@example.com>',
        'Subject: \\#urgent numbers?',
        '',
        '> Can you send them by \\<b>Friday\\</b>?',
        '> \\#thanks',
      ].join('\n'),
    );
    expect(extractTags(message.body)).toEqual([]);
  });

  it('escapes only the start of a body too long for a note, and says how long the whole is', async () => {
    const line = 'Log line of the #nightly run, all well.\r\n';
    const message = await parseEmail(mail(BASE, line.repeat(20_000)));
    expect(message.wholeBodyBytes).toBe((line.length - 1) * 20_000 - 1);
    expect(message.body.length).toBeLessThan(300 * 1024);
    expect(message.body.startsWith('Log line of the \\#nightly run, all well.\nLog line')).toBe(true);
    const short = await parseEmail(mail(BASE, line));
    expect(short.wholeBodyBytes).toBeUndefined();
  });
});

describe('parseEmail refuses bytes that are no e-mail, in a sentence', () => {
  const noHeaders = 'This is not an e-mail message: it has no mail headers (From, To, Subject, Date, Message-ID or MIME-Version).';
  const cases: [string, Buffer, string][] = [
    ['empty', Buffer.alloc(0), 'This is not an e-mail message: it is empty.'],
    ['only blank lines', Buffer.from('\r\n\r\n  \n'), 'This is not an e-mail message: it is empty.'],
    ['a PDF renamed .eml', PDF, noHeaders],
    ['prose', Buffer.from('Dear diary,\n\nToday: nothing much. From now on I shall write daily.\nSubject: none.\n'), noHeaders],
    ['prose whose first line has a colon', Buffer.from('Shopping list: eggs, milk\nbread\n'), noHeaders],
    ['headers, but none of a mail', Buffer.from('Content-Type: text/plain\n\nhello\n'), noHeaders],
    ['a header block of another format', Buffer.from('Host: example.com\nAccept: */*\n\n'), noHeaders],
    ['an Outlook .msg', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0]), 'This is an Outlook .msg file, not an e-mail message in the standard format: save it from Outlook as .eml, or export the folder as mbox, and import that.'],
  ];
  it.each(cases)('%s', async (_what, raw, sentence) => {
    const error: unknown = await parseEmail(raw).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EmailError);
    expect((error as Error).message).toBe(sentence);
  });
});

describe('formatAddress and looksLikeMbox', () => {
  it.each([
    [{ name: 'Ada', address: 'ada@example.org' }, 'Ada <ada@example.org>'],
    [{ name: '', address: 'ada@example.org' }, 'ada@example.org'],
    [{ name: 'ada@example.org', address: 'ada@example.org' }, 'ada@example.org'],
    [{ name: 'Only a name' }, 'Only a name'],
    [{}, ''],
  ])('%j', (a, expected) => {
    expect(formatAddress(a)).toBe(expected);
  });
  it.each([
    ['From ada@example.org Tue Mar  5 10:00:00 2024\n', true],
    ['From: ada@example.org\n', false],
    ['>From x\n', false],
    ['From', false],
    ['', false],
  ])('%j', (head, expected) => {
    expect(looksLikeMbox(Buffer.from(head))).toBe(expected);
  });
  it.each([
    ['From ada@example.org Tue Mar  5 10:00:00 2024\n', true],
    ['\t \n\n\t\n   \nFrom nobody Mon Sep 17 00:00:00 2001\n', true],
    ['\r\n\r\nFrom nobody Mon Sep 17 00:00:00 2001\r\n', true],
    ['  From nobody Mon Sep 17 00:00:00 2001\n', false],
    ['\n\nFrom: ada@example.org\n', false],
    ['\n\n', false],
  ])('starts like an mbox after blank lines: %j', (head, expected) => {
    expect(startsLikeMbox(Buffer.from(head))).toBe(expected);
  });
});

describe('readMbox: the messages of an mbox file, byte for byte', () => {
  function mboxFile(bytes: Buffer): string {
    const file = path.join(tempDir(), 'Inbox');
    fs.writeFileSync(file, bytes);
    return file;
  }

  it('splits on From lines, drops the separator and the blank line after each message, un-escapes >From', async () => {
    const stored = 'From: ada@example.org\nSubject: one\n\nFirst.\n>From the start, it was hard.\n>>From here on, quoted.\n>Fromage is no separator.\nFrom\n';
    const one = 'From: ada@example.org\nSubject: one\n\nFirst.\nFrom the start, it was hard.\n>From here on, quoted.\n>Fromage is no separator.\nFrom\n';
    const two = 'From: bob@example.org\nSubject: two\n\nSecond.\n\nWith a blank line inside.\n';
    const three = 'From: carol@example.org\nSubject: three\n\nThird, no newline at the end';
    const file = mboxFile(Buffer.from(`From ada@example.org Tue Mar  5 10:00:00 2024\n${stored}\nFrom bob@example.org Wed Mar  6 10:00:00 2024\n${two}\nFrom carol@example.org Thu Mar  7 10:00:00 2024\n${three}`));
    const messages = await collect(readMbox(file));
    expect(messages).toEqual([Buffer.from(one), Buffer.from(two), Buffer.from(three)]);
    const parsed = await Promise.all(messages.map((m) => parseEmail(m)));
    expect(parsed.map((m) => m.subject)).toEqual(['one', 'two', 'three']);
    expect(parsed[0]?.body).toBe('First.\nFrom the start, it was hard.\n>From here on, quoted.\n>Fromage is no separator.\nFrom');
  });

  it('un-escapes a >From line by exactly one >', async () => {
    const file = mboxFile(Buffer.from('From a@x Tue Mar  5 10:00:00 2024\nFrom: a@x\n\n>From one\n>>From two\n\n'));
    const [message] = await collect(readMbox(file));
    expect(message?.toString()).toBe('From: a@x\n\nFrom one\n>From two\n');
  });

  it('keeps CRLF files in CRLF, dropping the CRLF blank line between messages', async () => {
    const one = 'From: a@x\r\nSubject: one\r\n\r\n>From a body\r\n';
    const two = 'From: b@x\r\nSubject: two\r\n\r\nTwo.\r\n';
    const file = mboxFile(Buffer.from(`From a@x Tue Mar  5 10:00:00 2024\r\n${one}\r\nFrom b@x Tue Mar  5 10:00:00 2024\r\n${two}\r\n`));
    const messages = await collect(readMbox(file));
    expect(messages).toEqual([Buffer.from(one.replace('>From', 'From')), Buffer.from(two)]);
  });

  it('passes bytes of any charset through untouched, across read chunks', async () => {
    const latin1 = Buffer.from('From: a@x\nContent-Type: text/plain; charset=iso-8859-1\n\ncaf\xe9 \xff\x80\x00 end\n', 'latin1');
    // Bigger than a read chunk (64 KiB), with lines that straddle chunk edges, one of them longer than a chunk.
    const big = Buffer.concat([Buffer.from('From: b@x\nContent-Type: text/plain; charset=shift_jis\n\n'), Buffer.from('\x93\xfa\x96{\x8c\xea\n'.repeat(20_000), 'latin1'), Buffer.alloc(150_000, 0x41), Buffer.from('\n')]);
    const sjis = Buffer.from('From: c@x\n\n\x82\xb1\x82\xf1\n', 'latin1');
    const sep = (who: string): Buffer => Buffer.from(`From ${who} Tue Mar  5 10:00:00 2024\n`);
    const file = mboxFile(Buffer.concat([sep('a@x'), latin1, Buffer.from('\n'), sep('b@x'), big, Buffer.from('\n'), sep('c@x'), sjis]));
    const messages = await collect(readMbox(file));
    expect(messages).toHaveLength(3);
    expect(messages[0]?.equals(latin1)).toBe(true);
    expect(messages[1]?.equals(big)).toBe(true);
    expect(messages[2]?.equals(sjis)).toBe(true);
    // The Encoding Standard reads an iso-8859-1 label as windows-1252, where 0x80 is the euro sign.
    expect((await parseEmail(messages[0] ?? Buffer.alloc(0))).body).toBe('café ÿ€\u0000 end');
  });

  it('puts a separator that straddles two read chunks where it belongs', async () => {
    const head = 'From a@x Tue Mar  5 10:00:00 2024\n';
    const first = Buffer.concat([Buffer.from('From: a@x\n\n'), Buffer.alloc(65_536 - head.length - 'From: a@x\n\n'.length - 4, 0x61), Buffer.from('\n')]);
    const second = Buffer.from('From: b@x\n\nsecond\n');
    // The next separator begins 3 bytes before the 64 KiB mark.
    const file = mboxFile(Buffer.concat([Buffer.from(head), first, Buffer.from('\n'), Buffer.from(head), second]));
    expect(fs.statSync(file).size).toBeGreaterThan(65_536);
    const messages = await collect(readMbox(file));
    expect(messages).toEqual([first, second]);
  });

  it('reads an mbox whose first separator comes after blank lines and whitespace, as git-format-patch archives do', async () => {
    // Shaped like git's t/t5100/sample.mbox: a tab, blank lines and spaces before the first From line.
    const patch = 'From: A U Thor <a.u.thor@example.com>\nDate: Fri, 9 Jun 2006 00:44:16 -0700\nSubject: [PATCH] a commit.\n\nHere is a patch from A U Thor.\n\n---\n foo |    2 +-\n 1 files changed, 1 insertions(+), 1 deletions(-)\n-- \n1.4.0.g6f2b\n';
    const reply = 'From: Junio C Hamano <junio@kernel.org>\nDate: Fri, 9 Jun 2006 00:44:16 -0700\nSubject: re: [PATCH] another patch\n\nFrom: A U Thor <a.u.thor@example.com>\nSubject: [PATCH] another patch\n>Here is an empty patch from A U Thor.\n\nHey you forgot the patch!\n';
    const file = mboxFile(Buffer.from(`\t \n\n\t\n   \nFrom nobody Mon Sep 17 00:00:00 2001\n${patch}\nFrom nobody Mon Sep 17 00:00:00 2001\n${reply}\n`));
    const messages = await collect(readMbox(file));
    expect(messages).toEqual([Buffer.from(patch), Buffer.from(reply)]);
    const items = await collect(emailSources(file));
    expect(items.map((item) => item.label)).toEqual(['Inbox message 1', 'Inbox message 2']);
    const parsed = await Promise.all(items.map((item) => ('raw' in item ? parseEmail(item.raw) : Promise.reject(new Error(item.error)))));
    expect(parsed.map((m) => m.subject)).toEqual(['[PATCH] a commit.', 're: [PATCH] another patch']);
  });

  it('reads a single saved message that starts with blank lines, with or without its envelope line', async () => {
    const message = 'From: a@x\nSubject: after blank lines\n\nBody.\n';
    for (const bytes of [`\n \n${message}`, `\r\n\r\nFrom a@x Tue Mar  5 10:00:00 2024\r\n${message.replace(/\n/g, '\r\n')}`]) {
      const file = path.join(tempDir(), 'saved.eml');
      fs.writeFileSync(file, bytes);
      const items = await collect(emailSources(file));
      expect(items.map((item) => item.label)).toEqual(['saved.eml']);
      const item = items[0];
      expect(item && 'raw' in item ? (await parseEmail(item.raw)).subject : undefined).toBe('after blank lines');
    }
  });

  it('yields nothing for an empty file and skips empty entries', async () => {
    expect(await collect(readMbox(mboxFile(Buffer.alloc(0))))).toEqual([]);
    const file = mboxFile(Buffer.from('From a@x Tue Mar  5 10:00:00 2024\n\nFrom b@x Tue Mar  5 10:00:00 2024\nFrom: b@x\n\nb\n'));
    expect(await collect(readMbox(file))).toEqual([Buffer.from('From: b@x\n\nb\n')]);
  });
});

describe('emailSources: the messages at a path the user names', () => {
  const eml = (subject: string): Buffer => mail(['From: ada@example.org', `Subject: ${subject}`], subject);
  const mbox = Buffer.from(['From a@x Tue Mar  5 10:00:00 2024', 'From: a@x', 'Subject: m1', '', 'one', '', 'From b@x Tue Mar  5 10:00:00 2024', 'From: b@x', 'Subject: m2', '', 'two', ''].join('\n'));

  function labels(items: EmailSource[]): string[] {
    return items.map((item) => ('error' in item ? `${item.label}: ${item.error}` : item.label));
  }

  it('walks a folder for .eml files, sorted, skipping dot-entries, links and other files, reporting what it cannot read', async () => {
    const root = tempDir();
    const write = (rel: string, bytes: Buffer | string): void => {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), bytes);
    };
    write('b.eml', eml('b'));
    write('a.eml', eml('a'));
    write('sub/deeper/c.EML', eml('c'));
    write('sub/b2.eml', eml('b2'));
    write('.hidden/d.eml', eml('hidden'));
    write('sub/.trash.eml', eml('dot-file'));
    write('notes.txt', eml('txt'));
    write('Inbox', mbox);
    write('enveloped.eml', Buffer.concat([Buffer.from('From ada@example.org Tue Mar  5 10:00:00 2024\n'), eml('env')]));
    fs.symlinkSync(path.join(root, 'a.eml'), path.join(root, 'link.eml'));
    fs.symlinkSync(path.join(root, 'sub'), path.join(root, 'linked-folder'));
    // A folder named like a message cannot be read as one, whoever runs the test.
    fs.mkdirSync(path.join(root, 'x.eml'));

    const items = await collect(emailSources(root));
    expect(labels(items)).toEqual(['a.eml', 'b.eml', 'enveloped.eml', 'sub/b2.eml', 'sub/deeper/c.EML', 'x.eml: x.eml is a folder, not an e-mail file.']);
    const subjects = await Promise.all(items.flatMap((item) => ('raw' in item ? [parseEmail(item.raw).then((m) => m.subject)] : [])));
    expect(subjects).toEqual(['a', 'b', 'env', 'b2', 'c']);
    const first = items[0];
    expect(first && 'raw' in first && first.raw.equals(eml('a'))).toBe(true);
  });

  it('reads an mbox file whatever its name, one labelled item per message', async () => {
    const dir = tempDir();
    for (const name of ['Inbox', 'archive.mbox', 'odd.eml']) fs.writeFileSync(path.join(dir, name), mbox);
    for (const name of ['Inbox', 'archive.mbox', 'odd.eml']) {
      const items = await collect(emailSources(path.join(dir, name)));
      expect(labels(items)).toEqual([`${name} message 1`, `${name} message 2`]);
      const subjects = await Promise.all(items.map((item) => ('raw' in item ? parseEmail(item.raw).then((m) => m.subject) : '')));
      expect(subjects).toEqual(['m1', 'm2']);
    }
  });

  it('yields a single .eml file as it is', async () => {
    const file = path.join(tempDir(), 'Hello there.eml');
    fs.writeFileSync(file, eml('single'));
    const items = await collect(emailSources(file));
    expect(items).toEqual([{ label: 'Hello there.eml', raw: eml('single') }]);
  });

  it('yields a file of another kind for parseEmail to judge', async () => {
    const file = path.join(tempDir(), 'paper.eml');
    fs.writeFileSync(file, PDF);
    const [item] = await collect(emailSources(file));
    expect(item && 'raw' in item ? item.raw : undefined).toEqual(PDF);
    await expect(parseEmail(PDF)).rejects.toThrow(/no mail headers/);
  });

  it('reads a Maildir: the messages in cur/ and new/, not tmp/, nor those marked deleted (T) or dot-files', async () => {
    const root = tempDir();
    const write = (rel: string, bytes: Buffer): void => {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), bytes);
    };
    write('cur/1700000000.M1P100.host,S=120:2,S', eml('seen'));
    write('cur/1700000100.M2P100.host:2,RS', eml('replied'));
    write('cur/1700000200.M3P100.host:2,ST', eml('deleted, not yet expunged'));
    write('new/1700000300.M4P100.host', eml('unread'));
    write('new/.1700000400.M5P100.host', eml('dot-file'));
    write('tmp/1700000500.M6P100.host', eml('still being delivered'));
    // Maildir++ subfolders (Dovecot, Courier): dot-folders that are Maildirs; the trash is left out.
    write('.Sent/cur/1700000600.M7P100.host:2,S', eml('sent'));
    fs.mkdirSync(path.join(root, '.Sent', 'new'));
    write('.Trash/cur/1700000700.M8P100.host:2,S', eml('trashed'));
    fs.mkdirSync(path.join(root, '.Trash', 'new'));
    write('.Trash.2019/cur/1700000800.M9P100.host:2,S', eml('trashed in 2019'));
    fs.mkdirSync(path.join(root, '.Trash.2019', 'new'));
    write('.notmuch/x.eml', eml('tool state'));
    const items = await collect(emailSources(root));
    expect(labels(items)).toEqual([
      '.Sent/cur/1700000600.M7P100.host:2,S',
      'cur/1700000000.M1P100.host,S=120:2,S',
      'cur/1700000100.M2P100.host:2,RS',
      'new/1700000300.M4P100.host',
    ]);
    const subjects = await Promise.all(items.map((item) => ('raw' in item ? parseEmail(item.raw).then((m) => m.subject) : '')));
    expect(subjects).toEqual(['sent', 'seen', 'replied', 'unread']);
  });

  it('reads a folder of Maildirs (as mbsync and offlineimap keep them) beside .eml files, leaving out the trash unless named', async () => {
    const root = tempDir();
    const write = (rel: string, bytes: Buffer): void => {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), bytes);
    };
    write('work/INBOX/cur/1.M1.h:2,S', eml('inbox'));
    fs.mkdirSync(path.join(root, 'work', 'INBOX', 'new'));
    write('work/Archive/2024/new/2.M2.h', eml('archived'));
    fs.mkdirSync(path.join(root, 'work', 'Archive', '2024', 'cur'));
    write('work/[Gmail]/Trash/cur/3.M3.h:2,S', eml('thrown away'));
    fs.mkdirSync(path.join(root, 'work', '[Gmail]', 'Trash', 'new'));
    // Not a Maildir: a folder called cur without new/ beside it holds only what .eml files it has.
    write('notes/cur/readme', eml('not a maildir'));
    write('saved.eml', eml('saved'));
    const items = await collect(emailSources(root));
    expect(labels(items)).toEqual(['saved.eml', 'work/Archive/2024/new/2.M2.h', 'work/INBOX/cur/1.M1.h:2,S']);
    expect(labels(await collect(emailSources(path.join(root, 'work', '[Gmail]', 'Trash'))))).toEqual(['cur/3.M3.h:2,S']);
  });

  it('is content with a folder that holds nothing to import', async () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, '.git'));
    fs.writeFileSync(path.join(root, '.git', 'x.eml'), eml('x'));
    fs.writeFileSync(path.join(root, 'readme.md'), '# hi');
    expect(await collect(emailSources(root))).toEqual([]);
  });

  it('says plainly that a path does not exist', async () => {
    const missing = path.join(tempDir(), 'nowhere', 'mail.eml');
    const error: unknown = await collect(emailSources(missing)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EmailError);
    expect((error as Error).message).toBe(`There is no file or folder at ${missing}.`);
  });
});
