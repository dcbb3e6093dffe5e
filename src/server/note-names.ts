/**
 * Notes by names a person can read, for the note resource template: what
 * `completion/complete` offers for its `note_id`, and what `resources/read`
 * accepts in its place. A person picking from a menu of UUIDs cannot tell
 * them apart; a note's title can, and where titles repeat its path (folder
 * and file name, without `.md`) tells them apart. Everything goes through
 * the connection's view: no note outside its boundary is offered, counted
 * or resolved, and whether a title repeats is judged among the notes it sees.
 */
import type { VaultView, VisibleNote } from '../access/view.js';
import { TopK } from '../index/top-k.js';
import { foldName } from '../storage/names.js';

export const MAX_COMPLETIONS = 100;

type Ranked = { id: string; score: number; note: VisibleNote };

/** A note's path without `.md`, the name it goes by where its title repeats; a teammate's note shows no path. */
function pathName(note: VisibleNote): string | undefined {
  return note.owner === undefined ? note.record.path.replace(/\.md$/iu, '') : undefined;
}

/** How many visible notes carry each folded title. */
function titleCounts(view: VaultView): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { record } of view.allNotes()) {
    const title = foldName(record.title);
    counts.set(title, (counts.get(title) ?? 0) + 1);
  }
  return counts;
}

/** The name a note is offered by: its title, or its path where another visible note has the same title. */
function nameOf(note: VisibleNote, counts: ReadonlyMap<string, number>): string {
  const repeated = (counts.get(foldName(note.record.title)) ?? 0) > 1;
  return (repeated ? pathName(note) : undefined) ?? note.record.title;
}

/**
 * Completion of `note_id`: the names of the visible notes whose title (or
 * path) starts with what was typed, folded for case and accents, then those
 * with a word starting so, then those holding it anywhere (a Japanese or
 * Chinese title has no spaces between words: 同期 is inside 同期の設定);
 * newest first within each. An id typed so far completes to the id.
 */
export function completeNoteName(view: VaultView, typed: string): { values: string[]; total: number; hasMore: boolean } {
  const prefix = typed.trim();
  const wanted = foldName(prefix);
  // Sorted only as far as a page needs: an empty prefix completes to every note of the vault.
  const tiers = [new TopK<Ranked>(MAX_COMPLETIONS), new TopK<Ranked>(MAX_COMPLETIONS), new TopK<Ranked>(MAX_COMPLETIONS)] as const;
  let total = 0;
  for (const note of view.allNotes()) {
    const { record } = note;
    const title = foldName(record.title);
    const path = foldName(pathName(note) ?? '');
    let tier: number | undefined;
    if (wanted === '' || title.startsWith(wanted) || path.startsWith(wanted) || record.id.startsWith(prefix)) tier = 0;
    else if (title.includes(` ${wanted}`) || title.includes(`-${wanted}`) || path.includes(`/${wanted}`)) tier = 1;
    else if (title.includes(wanted)) tier = 2;
    if (tier === undefined) continue;
    total++;
    const into = tiers[tier] as TopK<Ranked>;
    if (into.admits(record.updatedMs, record.id)) into.push({ id: record.id, score: record.updatedMs, note });
  }
  const chosen = tiers.flatMap((tier) => tier.sorted()).slice(0, MAX_COMPLETIONS);
  const counts = chosen.length > 0 ? titleCounts(view) : new Map<string, number>();
  // What was typed as an id stays an id: the person is completing one.
  const values = chosen.map(({ id, note }) => (prefix !== '' && id.startsWith(prefix) ? id : nameOf(note, counts)));
  return { values, total, hasMore: total > values.length };
}

/** The outcome of reading a name: the note's id, or a sentence saying why there is none. */
export type NameLookup = { id: string } | { refused: string };

/**
 * The visible note a resource's `note_id` names: an id; else a path without
 * `.md` (a completion's name where titles repeat); else a title that only
 * one visible note has, folded for case and accents.
 */
export function noteNamed(view: VaultView, name: string): NameLookup {
  if (view.find(name)) return { id: name };
  const wanted = foldName(name.replace(/\.md$/iu, ''));
  const titled: VisibleNote[] = [];
  for (const note of view.allNotes()) {
    const path = pathName(note);
    if (path !== undefined && foldName(path) === wanted) return { id: note.record.id };
    if (foldName(note.record.title) === wanted) titled.push(note);
  }
  const [only, second] = titled;
  if (only && !second) return { id: only.record.id };
  if (!only) return { refused: 'Note not found' };
  // Sorted: the notes come in the order they were read, which differs from one start to the next.
  const paths = titled.map(pathName).filter((path): path is string => path !== undefined).sort().slice(0, 3);
  return { refused: `${titled.length} notes are titled "${name}"; name one by its path${paths.length > 0 ? `, such as ${paths.map((path) => `"${path}"`).join(' or ')}` : ''}.` };
}
