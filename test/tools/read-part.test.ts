import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connect, connectClient, removeDir, writeVault, type Harness } from '../support/helpers.js';
import { BOUNDARY_VAULT, CASES, id } from '../support/access-fixture.js';

/** get_note's answer, the parts this file reads. */
interface Reading {
  id: string;
  text: string;
  lines: { from: number; to: number; total: number };
  truncated?: true;
  outline: { heading: string; level: number; line: number }[];
  outline_truncated?: true;
}

const LONG_ID = id(101);
const CRLF_ID = id(102);
const SHORT_ID = id(103);
const OUTSIDE_ID = id(104);

/**
 * A generated note of some 200,000 characters: a title heading, then 40
 * sections of about 5,000 characters, each with a `### Notes` subsection (so
 * that `Notes` alone names 40 headings), lines of every length up to a few
 * hundred characters, and a code block holding a `#` line that is no heading.
 */
function longBody(): string {
  const lines = ['# Report', 'An introduction paragraph. #work', ''];
  for (let s = 1; s <= 40; s++) {
    lines.push(`## Section ${s}`, '');
    let size = 0;
    for (let p = 0; size < 5000; p++) {
      const line = `Paragraph ${s}.${p}: ${'word '.repeat((s * 7 + p * 13) % 90)}end.`;
      lines.push(line, '');
      size += line.length + 2;
    }
    lines.push('### Notes', `Notes of section ${s}.`, '```', '# not a heading', '```', '');
  }
  return lines.join('\n');
}
const LONG = longBody();
const CRLF = '# One\r\nfirst\r\n\r\n# Two\r\nsecond\r\n';

const frontmatter = (n: number, title: string) => `---\nid: ${id(n)}\ntitle: ${title}\n---\n`;

let h: Harness;
beforeAll(async () => {
  h = await connect({
    dir: await writeVault({
      ...BOUNDARY_VAULT,
      'Work/Long report.md': frontmatter(101, 'Long report') + LONG,
      'Work/Windows note.md': frontmatter(102, 'Windows note') + CRLF,
      'Work/Short.md': frontmatter(103, 'Short') + 'Just this. #work\n',
      // Outside both boundaries: in Home, without #work.
      'Home/Outside long.md': frontmatter(104, 'Outside long') + LONG.replace('#work', '#home'),
    }),
    settings: { noteCap: null },
  });
});
afterAll(async () => {
  await h.close();
  await removeDir(h.dir);
});

describe('get_note on a long note', () => {
  it('gives the whole body up to 50,000 characters in whole lines, says truncated, and outlines the whole body', async () => {
    expect(LONG.length).toBeGreaterThan(200_000);
    const note = await h.ok<Reading>('get_note', { note_id: LONG_ID });
    expect(note.truncated).toBe(true);
    expect(note.text.length).toBeLessThanOrEqual(50_000);
    expect(note.text.length).toBeGreaterThan(49_000);
    expect(LONG.startsWith(note.text)).toBe(true);
    expect(note.text.endsWith('\n')).toBe(true);
    // The body ends with a line break, which starts no line.
    expect(LONG.endsWith('\n')).toBe(true);
    const total = LONG.split('\n').length - 1;
    expect(note.lines).toEqual({ from: 1, to: note.text.split('\n').length - 1, total });
    expect(note.outline).toHaveLength(1 + 40 * 2);
    expect(note.outline.slice(0, 3)).toEqual([
      { heading: 'Report', level: 1, line: 1 },
      { heading: 'Section 1', level: 2, line: 4 },
      { heading: 'Notes', level: 3, line: expect.any(Number) as number },
    ]);
    expect(note.outline.map((entry) => entry.heading)).not.toContain('not a heading');
    expect(note.outline_truncated).toBeUndefined();
    // The answer is a fraction of the body, well under what a client takes.
    const result = await h.call('get_note', { note_id: LONG_ID });
    expect(JSON.stringify(result).length).toBeLessThan(150_000);
  });

  it('reads it back exactly section by section, by outline and heading', async () => {
    const { outline } = await h.ok<Reading>('get_note', { note_id: LONG_ID, max_lines: 1 });
    const sections = outline.filter((entry) => entry.level === 2);
    expect(sections).toHaveLength(40);
    const firstSection = sections[0]?.line ?? 0;
    let read = (await h.ok<Reading>('get_note', { note_id: LONG_ID, max_lines: firstSection - 1 })).text;
    for (const section of sections) {
      const part = await h.ok<Reading>('get_note', { note_id: LONG_ID, heading: section.heading.toUpperCase() });
      expect(part.truncated, section.heading).toBeUndefined();
      expect(part.lines.from).toBe(section.line);
      expect(part.text.startsWith(`## ${section.heading}\n`)).toBe(true);
      read += part.text;
    }
    expect(read).toBe(LONG);
  });

  it('pages through it with from_line and max_lines until lines.to is lines.total, giving the body back exactly', async () => {
    let read = '';
    let from = 1;
    let calls = 0;
    for (;;) {
      const page = await h.ok<Reading>('get_note', { note_id: LONG_ID, from_line: from, max_lines: 400 });
      calls++;
      expect(page.lines.from).toBe(from);
      expect(page.lines.to - page.lines.from).toBeLessThan(400);
      expect(page.text.length).toBeLessThanOrEqual(50_000);
      read += page.text;
      if (page.lines.to === page.lines.total) break;
      from = page.lines.to + 1;
    }
    expect(read).toBe(LONG);
    expect(calls).toBeGreaterThan(1);
  });

  it('reads on after a truncated answer with from_line = lines.to + 1', async () => {
    let read = '';
    let args: Record<string, unknown> = { note_id: LONG_ID };
    let truncatedAnswers = 0;
    for (;;) {
      const part = await h.ok<Reading>('get_note', args);
      read += part.text;
      if (part.truncated !== true) break;
      truncatedAnswers++;
      args = { note_id: LONG_ID, from_line: part.lines.to + 1 };
    }
    expect(read).toBe(LONG);
    // No answer holds more than 50,000 characters, so at least this many were cut short.
    expect(truncatedAnswers).toBeGreaterThanOrEqual(Math.ceil(LONG.length / 50_000) - 1);
  });

  it('picks a nested heading by Parent#Child, and refuses an ambiguous or missing heading', async () => {
    const notes = await h.ok<Reading>('get_note', { note_id: LONG_ID, heading: 'Section 3#Notes' });
    expect(notes.text).toBe('### Notes\nNotes of section 3.\n```\n# not a heading\n```\n\n');
    expect(await h.fail('get_note', { note_id: LONG_ID, heading: 'Notes' })).toMatch(/^"Notes" matches 40 headings in the note; .*Parent#Child/);
    expect(await h.fail('get_note', { note_id: LONG_ID, heading: 'Section 99' })).toBe('Heading not found: Section 99');
    expect(await h.fail('get_note', { note_id: LONG_ID, heading: 'not a heading' })).toBe('Heading not found: not a heading');
  });

  it('refuses a from_line past the end or outside the section, and out-of-range numbers, in sentences', async () => {
    const { lines } = await h.ok<Reading>('get_note', { note_id: LONG_ID, max_lines: 1 });
    expect(await h.fail('get_note', { note_id: LONG_ID, from_line: lines.total + 1 })).toBe(
      `from_line ${lines.total + 1} is past the end of the note, which has ${lines.total} lines; give a from_line from 1 to ${lines.total}.`,
    );
    const last = await h.ok<Reading>('get_note', { note_id: LONG_ID, from_line: lines.total });
    expect(last.lines).toEqual({ from: lines.total, to: lines.total, total: lines.total });
    expect(await h.fail('get_note', { note_id: LONG_ID, heading: 'Section 2', from_line: 1 })).toMatch(/^from_line 1 is outside "Section 2", which is lines \d+ to \d+ of the note;/);
    expect(await h.fail('get_note', { note_id: LONG_ID, from_line: 0 })).toBe('from_line must be 1 or more');
    expect(await h.fail('get_note', { note_id: LONG_ID, max_lines: 0 })).toBe('max_lines must be 1 or more');
    expect(await h.fail('get_note', { note_id: LONG_ID, from_line: 1.5 })).toBe('from_line must be a whole number');
    expect(await h.fail('get_note', { note_id: LONG_ID, heading: '' })).toMatch(/^heading must be 1 to 1000 characters/);
  });
});

describe('what an assistant reads before calling', () => {
  it('get_note teaches reading a long note by outline and heading, and the instructions say it once', async () => {
    const tool = (await h.client.listTools()).tools.find((candidate) => candidate.name === 'get_note');
    expect(tool?.description).toMatch(/50,000 characters.*truncated/s);
    expect(tool?.description).toMatch(/outline.*heading/s);
    expect(tool?.description).toMatch(/Heading not found/);
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(['note_id', 'heading', 'from_line', 'max_lines']);
    expect(tool?.inputSchema.required).toEqual(['note_id']);
    expect(h.client.getInstructions()).toMatch(/read a long note by its outline, one heading at a time/);
  });
});

describe('get_note on short notes', () => {
  it('gives a short note whole, without truncated, with its lines and outline', async () => {
    const note = await h.ok<Reading>('get_note', { note_id: SHORT_ID });
    expect(note.text).toBe('Just this. #work\n');
    expect(note.lines).toEqual({ from: 1, to: 1, total: 1 });
    expect(note.outline).toEqual([]);
    expect('truncated' in note).toBe(false);
  });

  it('counts CRLF lines as one break each and gives them back as written', async () => {
    const whole = await h.ok<Reading>('get_note', { note_id: CRLF_ID });
    expect(whole.text).toBe(CRLF);
    expect(whole.lines).toEqual({ from: 1, to: 5, total: 5 });
    expect(whole.outline).toEqual([
      { heading: 'One', level: 1, line: 1 },
      { heading: 'Two', level: 1, line: 4 },
    ]);
    expect((await h.ok<Reading>('get_note', { note_id: CRLF_ID, heading: 'two' })).text).toBe('# Two\r\nsecond\r\n');
    expect((await h.ok<Reading>('get_note', { note_id: CRLF_ID, from_line: 2, max_lines: 2 })).text).toBe('first\r\n\r\n');
  });
});

describe('the writes answer with the same cap', () => {
  it('create_note and update_note return a long body as get_note does, truncated; the file keeps it whole', async () => {
    const created = await h.ok<Reading>('create_note', { title: 'Pasted report', text: LONG });
    expect(created.truncated).toBe(true);
    expect(created.text.length).toBeLessThanOrEqual(50_000);
    expect(created.outline).toHaveLength(81);
    const appended = await h.ok<Reading>('update_note', { note_id: created.id, text: 'The end.', mode: 'append' });
    expect(appended.truncated).toBe(true);
    expect(appended.lines.total).toBeGreaterThan(created.lines.total);
    const moved = await h.ok<Reading>('move_note', { note_id: created.id, folder: 'Work' });
    expect(moved.text).toBe(appended.text);
    const file = await readFile(path.join(h.dir, 'Work', 'Pasted report.md'), 'utf8');
    expect(file).toContain(`${LONG}\nThe end.`);
  });
});

describe.each(CASES)('under the boundary $name', (c) => {
  let bounded: Client;
  beforeAll(async () => {
    bounded = await connectClient(h.runtime, { ...(c.folder === undefined ? {} : { folder: c.folder }), ...(c.tag === undefined ? {} : { tag: c.tag }) });
  });
  afterAll(async () => {
    await bounded.close();
  });
  /** The whole answer of a call, error or not, as text. */
  const answer = async (args: Record<string, unknown>): Promise<string> => {
    const result = (await bounded.callTool({ name: 'get_note', arguments: args })) as CallToolResult;
    return JSON.stringify(result);
  };

  it('reads an outside note by heading or lines exactly as a note that does not exist', async () => {
    const requests: Record<string, unknown>[] = [{}, { heading: 'Section 2' }, { heading: 'Nope' }, { from_line: 1, max_lines: 5 }, { from_line: 999_999 }, { heading: 'Section 2', from_line: 1 }];
    for (const request of requests) {
      const unknown = await answer({ note_id: id(999), ...request });
      expect(unknown).toContain('Note not found');
      for (const outside of [OUTSIDE_ID, ...c.outside.map(id)]) {
        expect((await answer({ note_id: outside, ...request })).split(outside).join(id(999)), `${outside} ${JSON.stringify(request)}`).toBe(unknown);
      }
    }
    // The same requests on an inside note answer.
    expect(await answer({ note_id: LONG_ID, heading: 'Section 2' })).toContain('## Section 2\\n');
  });
});
