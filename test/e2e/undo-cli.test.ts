import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, writeVault } from '../support/helpers.js';
import { gitStatus, initRepo } from '../support/git.js';
import { startStdioServer, type StdioServer } from '../support/stdio-server.js';
import { CLI, eventually, ROOT, runCli, STACK_FRAME } from '../support/process.js';

/**
 * The "done when", through the built CLI: an assistant's `replace`
 * over stdio, `dexi-vault activity` showing it, and `dexi-vault undo`
 * bringing the note back byte for byte while the session is still open,
 * in a git vault whose `git status` then shows nothing of the person's
 * files changed.
 */

const ID = '00000000-0000-4000-8000-00000000c0de';
// What a replace loses: a frontmatter comment and key order, a table, an HTML comment, CRLF line ends.
const NOTE = [
  '---',
  'status: draft',
  `id: ${ID}`,
  '# keep this comment',
  'created: 2026-11-20T08:00:00+00:00',
  '---',
  '# Garden plan',
  '',
  '| bed | crop |',
  '| --- | ---- |',
  '| 1   | kale |',
  '',
  '<!-- sow after the frost -->',
  'Sow the kale in bed one.',
  '',
].join('\r\n');

let vault: string;
let server: StdioServer | undefined;
const file = (): Promise<Buffer> => readFile(path.join(vault, 'Garden plan.md'));
const env = (): NodeJS.ProcessEnv => ({ ...process.env, DEXI_VAULT: '' });

beforeAll(async () => {
  vault = await writeVault({ 'Garden plan.md': NOTE, 'Other.md': 'Another note.\n' });
  initRepo(vault);
  server = await startStdioServer({ args: [CLI, 'serve', '--vault', vault, '--model', 'none'], cwd: ROOT, clientName: 'undo-test' });
  await eventually(async () => ((await server?.call('get_note', { note_id: ID }))?.isError ? undefined : true), 30_000, 'the vault to be read');
}, 60_000);

afterAll(async () => {
  await server?.client.close();
  await removeDir(vault);
});

describe('dexi-vault activity and undo after an assistant\'s replace', () => {
  it('records the replace, and undo brings the note back byte for byte while the session goes on', async () => {
    const replaced = await server?.call('update_note', { note_id: ID, text: 'Kale.', mode: 'replace' });
    expect(replaced?.isError).toBeFalsy();
    expect((await file()).toString()).not.toContain('| bed | crop |');

    const activity = await runCli(['activity', '--vault', vault, '--since', '1d'], { env: env() });
    expect(activity.code, activity.stderr).toBe(0);
    const lines = activity.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TIME\s+TOOL\s+BY\s+CHANGE$/);
    expect(lines.slice(1)).toEqual([expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+update_note\s+stdio\s+changed Garden plan\.md$/)]);

    const undone = await runCli(['undo', ID, '--vault', vault], { env: env() });
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stdout).toMatch(/^Undid the assistant's update_note of Garden plan\.md on .*: the note is back as it was before\.\n$/);
    expect(await file()).toEqual(Buffer.from(NOTE));
    // Nothing shows as changed: the note is as committed, and the record and history are git-ignored.
    expect(gitStatus(vault)).toBe('');
    // The live session reads the note as it is again.
    await eventually(
      async () => {
        const got = await server?.call('get_note', { note_id: ID });
        return (got?.structuredContent as { text?: string } | undefined)?.text?.includes('sow after the frost') ? true : undefined;
      },
      10_000,
      'the session to see the undone note',
    );

    const again = await runCli(['undo', ID, '--vault', vault], { env: env() });
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`dexi-vault: Every change the assistant made to ${ID} that is on record has been undone already.\n`);
    const listed = await runCli(['activity', '--vault', vault], { env: env() });
    expect(listed.stdout).toMatch(/update_note\s+stdio\s+changed Garden plan\.md \(undone\)\n/);
    expect(listed.stdout).toMatch(/undo\s+command line\s+changed Garden plan\.md \(an undo\)\n/);
  });

  it('refuses to undo over the person\'s own edit, in one sentence, and leaves the note alone', async () => {
    const appended = await server?.call('update_note', { note_id: ID, text: 'Water on Sundays.', mode: 'append' });
    expect(appended?.isError).toBeFalsy();
    const mine = `${(await file()).toString()}My own line.\r\n`;
    await writeFile(path.join(vault, 'Garden plan.md'), mine);
    const refused = await runCli(['undo', '--last', '--vault', vault], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^dexi-vault: Cannot undo the assistant's update_note of Garden plan\.md on .*: Garden plan\.md has been changed since, by you or another program; undoing would lose that change\. Nothing was changed\.\n$/);
    expect((await file()).toString()).toBe(mine);
  });

  it('answers mistakes with one plain line and the right exit code', async () => {
    const cases: [string[], number, RegExp][] = [
      [['undo', '--vault', vault], 2, /^dexi-vault: undo needs the note to put back/],
      [['undo', 'Nowhere.md', '--vault', vault], 1, /^dexi-vault: No change by the assistant to Nowhere\.md is on record/],
      [['activity', '--since', 'soon', '--vault', vault], 2, /^dexi-vault: --since takes a span such as 30m/],
      [['activity', '--since', '2026-02-31', '--vault', vault], 2, /^dexi-vault: --since takes a span .*"2026-02-31" is not a date\./],
      [['activity', '--vault', path.join(vault, 'missing')], 1, /^dexi-vault: The vault folder .* does not exist; give the vault with --vault DIR \(or \$DEXI_VAULT\)\.$/m],
    ];
    for (const [args, code, message] of cases) {
      const result = await runCli(args, { env: env() });
      expect(result.code, args.join(' ')).toBe(code);
      expect(result.stderr, args.join(' ')).toMatch(message);
      expect(result.stderr).not.toMatch(STACK_FRAME);
    }
  });
});
