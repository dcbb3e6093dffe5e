// Another program working on the vault while the server runs, for the soak
// test. Plain Node, synchronous file calls (as editors and sync tools make
// them), its own process. Prints its journal as one JSON line when done.
//
//   node outside-actor.mjs editor|sync VAULT_DIR MILLISECONDS SEED
//
// editor: appends lines in place, moves notes between folders, deletes
//         notes, creates notes (some without an id, for the server to stamp).
// sync:   rewrites notes the way sync tools do: read, then write the new
//         version through a temporary file and a rename, or in place
//         (truncate + write, sometimes in two halves with a pause).
// Every note line it writes is a unique token, so that the test can tell
// afterwards what was kept and what was lost.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const [role, dir, msText, seedText] = process.argv.slice(2);
const until = Date.now() + Number(msText);
let state = Number(seedText) >>> 0;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (items) => items[Math.floor(random() * items.length)];
const now = () => performance.timeOrigin + performance.now();
const pause = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms) => Atomics.wait(pause, 0, 0, ms);
const FOLDERS = ['', 'A', 'B', 'A/Deep'];
const TOKEN = /^[ACEIRS]-[0-9a-z-]+$/;

const journal = [];
const counts = { ops: 0, skipped: 0 };
let n = 0;

function noteFiles() {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .filter((rel) => !rel.split(path.sep).some((segment) => segment.startsWith('.')));
}

/** Hot notes (their names say so) get half the attention, so that writers meet. */
function pickNote() {
  const files = noteFiles();
  const hot = files.filter((rel) => path.basename(rel).startsWith('hot'));
  return hot.length > 0 && random() < 0.5 ? pick(hot) : pick(files);
}

function idOf(content) {
  if (!content.startsWith('---\n')) return undefined;
  const end = content.indexOf('\n---\n', 3);
  if (end === -1) return undefined;
  const match = /^id: (\S+)$/m.exec(content.slice(4, end + 1));
  return match ? match[1] : undefined;
}

function tokensOf(content) {
  return content.split('\n').filter((line) => TOKEN.test(line));
}

function read(rel) {
  try {
    const abs = path.join(dir, rel);
    const stat = fs.statSync(abs);
    return { abs, stat, content: fs.readFileSync(abs, 'utf8') };
  } catch {
    return undefined;
  }
}

/** The file is still the one that was read (a careful tool checks before it overwrites). */
function unchanged(abs, stat) {
  try {
    const now = fs.statSync(abs);
    return now.ino === stat.ino && now.size === stat.size && now.mtimeMs === stat.mtimeMs;
  } catch {
    return false;
  }
}

function editorStep() {
  const roll = random();
  if (roll < 0.12) {
    const token = `E-${++n}`;
    const folder = pick(FOLDERS);
    const name = `${random() < 0.3 ? 'hot' : 'cold'}-e${n}.md`;
    const withId = random() < 0.7;
    const id = withId ? randomUUID() : null;
    const t0 = now();
    fs.mkdirSync(path.join(dir, folder), { recursive: true });
    fs.writeFileSync(path.join(dir, folder, name), withId ? `---\nid: ${id}\n---\n${token}\n` : `${token}\n`, { flag: 'wx' });
    journal.push({ kind: 'create', token, id, t0, t1: now() });
    return;
  }
  const rel = pickNote();
  const file = rel && read(rel);
  if (!file) return void counts.skipped++;
  const id = idOf(file.content);
  if (roll < 0.76) {
    if (!id) return void counts.skipped++;
    const token = `E-${++n}`;
    const t0 = now();
    try {
      fs.appendFileSync(file.abs, `\n${token}\n`);
    } catch {
      return void counts.skipped++;
    }
    journal.push({ kind: 'append', token, id, t0, t1: now() });
  } else if (roll < 0.95) {
    const folder = pick(FOLDERS);
    const name = `${path.basename(rel).startsWith('hot') ? 'hot' : 'cold'}-m${++n}.md`;
    fs.mkdirSync(path.join(dir, folder), { recursive: true });
    try {
      fs.renameSync(file.abs, path.join(dir, folder, name));
    } catch {
      return void counts.skipped++;
    }
    journal.push({ kind: 'move', id, t0: now() });
  } else {
    // Only notes with an id: the journal names what was deleted by its id.
    if (!id) return void counts.skipped++;
    const t0 = now();
    try {
      fs.unlinkSync(file.abs);
    } catch {
      return void counts.skipped++;
    }
    journal.push({ kind: 'delete', id, tokens: tokensOf(file.content), t0, t1: now() });
  }
}

function syncStep() {
  const rel = pickNote();
  const t0 = now();
  const file = rel && read(rel);
  if (!file) return void counts.skipped++;
  const id = idOf(file.content);
  if (!id) return void counts.skipped++;
  const token = `S-${++n}`;
  const next = `${file.content}${file.content.endsWith('\n') ? '' : '\n'}${token}\n`;
  const readTokens = tokensOf(file.content);
  const roll = random();
  let via;
  if (roll < 0.5) {
    via = 'rename';
    const temp = path.join(path.dirname(file.abs), `.sync-${n}.tmp`);
    fs.writeFileSync(temp, next);
    if (!unchanged(file.abs, file.stat)) {
      fs.unlinkSync(temp);
      return void counts.skipped++;
    }
    fs.renameSync(temp, file.abs);
  } else {
    if (!unchanged(file.abs, file.stat)) return void counts.skipped++;
    via = roll < 0.8 ? 'in place' : 'in place, in two halves';
    let fd;
    try {
      fd = fs.openSync(file.abs, 'r+');
    } catch {
      return void counts.skipped++;
    }
    fs.ftruncateSync(fd, 0);
    const bytes = Buffer.from(next);
    if (via === 'in place') {
      fs.writeSync(fd, bytes, 0, bytes.length, 0);
    } else {
      const half = Math.floor(bytes.length / 2);
      fs.writeSync(fd, bytes, 0, half, 0);
      sleep(3);
      fs.writeSync(fd, bytes, half, bytes.length - half, half);
    }
    fs.closeSync(fd);
  }
  journal.push({ kind: 'rewrite', via, token, id, readTokens, t0, t1: now() });
}

/**
 * The two actors take turns, one step at a time (a folder made beside the
 * vault as the token, since mkdir either makes it or fails). Each alone
 * still races the server; between themselves they made a duplicate the
 * server had no part in: the sync tool found a note unchanged, the editor
 * moved it away, and the sync tool's rename put it back at its old path,
 * so the editor's next move gave the vault two files of one note.
 */
const TURN = `${path.resolve(dir)}.actors-turn`;
function takeTurn() {
  for (;;) {
    try {
      fs.mkdirSync(TURN);
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      // The other actor's steps take milliseconds: a turn held this long is a dead actor's.
      if (Date.now() > until + 10_000) throw new Error(`The other actor has held ${TURN} for too long`);
      sleep(1);
    }
  }
}

while (Date.now() < until) {
  counts.ops++;
  takeTurn();
  try {
    if (role === 'editor') editorStep();
    else syncStep();
  } finally {
    fs.rmdirSync(TURN);
  }
  sleep(role === 'editor' ? 4 + Math.floor(random() * 10) : 6 + Math.floor(random() * 12));
}
process.stdout.write(`${JSON.stringify({ role, counts, journal })}\n`);
