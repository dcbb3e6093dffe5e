/**
 * The page of a ranked search whose phrases must be looked for in the
 * notes' text (`RankedMiniSearch#rankReading`, ranked-search.ts): the index
 * keeps no word positions, so it can only tell that a note holds all of a
 * phrase's words, and a note whose match depends on more is read. Apart
 * from the ranking because it is a job of its own: reading, a few notes at
 * a time, within a budget, and estimating the total from a sample when the
 * budget does not reach every note.
 */

/** A phrase to look for in a note's text, in the fields (by name) that hold all its words. */
export interface PhraseLookup {
  terms: readonly string[];
  fields: readonly string[];
}

/** Which of `phrases` the note holds (adjacent, in order); undefined when the note cannot be read any more. */
export type PhraseCheck = (id: string, phrases: readonly PhraseLookup[]) => Promise<readonly boolean[] | undefined>;

/** What must be read of one note before it is known to match. */
export interface PendingChecks {
  lookups: PhraseLookup[];
  /** Per group with a phrase that only reading can settle: the lookups of its phrases, one of which the note must hold. */
  needs: number[][];
  /** Lookups of excluded phrases: holding one leaves the note out. */
  leaveOut: number[];
}

/** A candidate note, in rank order. */
export interface RankedCandidate {
  doc: number;
  id: string;
  /** How many of the query's groups it holds. */
  level: number;
}

/** Notes read at once while a phrase is looked for. */
const READ_AHEAD = 16;

/** Reads candidates' text within a budget, counting the reads and how many matched. */
class PhraseReader {
  reads = 0;
  matchedReads = 0;

  constructor(
    private readonly pending: ReadonlyMap<number, PendingChecks>,
    private readonly check: PhraseCheck,
    readonly budget: number,
  ) {}

  /** Whether each of `docs` matches, reading the pending ones together. */
  async matchAll(docs: readonly { doc: number; id: string }[]): Promise<boolean[]> {
    const { pending } = this;
    const held = await Promise.all(docs.map(({ doc, id }) => {
      const checks = pending.get(doc);
      return checks === undefined ? undefined : this.check(id, checks.lookups);
    }));
    return docs.map(({ doc }, k) => {
      const checks = pending.get(doc);
      if (checks === undefined) return true;
      this.reads++;
      const holds = held[k];
      const matches = holds !== undefined && checks.needs.every((alternatives) => alternatives.some((j) => holds[j] === true)) && !checks.leaveOut.some((j) => holds[j] === true);
      if (matches) this.matchedReads++;
      return matches;
    });
  }

  /** Whether a candidate has to be read. */
  has(doc: number): boolean {
    return this.pending.has(doc);
  }
}

/**
 * The page of `order` (every candidate, best first) and the total: read
 * best first, a few at a time, until the page has `limit` hits; then the
 * rest counted, all of them read if the budget allows, else an evenly
 * spread sample of them, and the total is then `approximate`. Every hit is
 * a note that was read and matched; if the budget runs out before the page
 * is full, the page is short and `approximate`.
 */
export async function readPage<H>(
  order: readonly RankedCandidate[],
  pending: ReadonlyMap<number, PendingChecks>,
  check: PhraseCheck,
  budget: number,
  limit: number,
  hit: (candidate: RankedCandidate) => H,
): Promise<{ total: number; hits: H[]; approximate?: true }> {
  const reader = new PhraseReader(pending, check, budget);
  const hits: H[] = [];
  let count = 0;
  let at = 0;
  // The page, best first.
  while (at < order.length && hits.length < limit && reader.reads < budget) {
    const chunk: RankedCandidate[] = [];
    let toRead = 0;
    while (at < order.length && toRead < Math.min(READ_AHEAD, budget - reader.reads)) {
      const candidate = order[at++] as RankedCandidate;
      chunk.push(candidate);
      if (reader.has(candidate.doc)) toRead++;
    }
    const matches = await reader.matchAll(chunk);
    chunk.forEach((candidate, k) => {
      if (!matches[k]) return;
      count++;
      if (hits.length < limit) hits.push(hit(candidate));
    });
  }
  const rest = await countRest(order, at, reader);
  return rest.approximate ? { total: count + rest.count, hits, approximate: true } : { total: count + rest.count, hits };
}

/** How many of the candidates from `at` on (those after the page) match: those that need no reading, and those read, or estimated from a sample. */
async function countRest(order: readonly RankedCandidate[], at: number, reader: PhraseReader): Promise<{ count: number; approximate: boolean }> {
  let count = 0;
  const unread: RankedCandidate[] = [];
  for (let i = at; i < order.length; i++) {
    const candidate = order[i] as RankedCandidate;
    if (reader.has(candidate.doc)) unread.push(candidate);
    else count++;
  }
  if (unread.length === 0) return { count, approximate: false };
  const left = Math.max(0, reader.budget - reader.reads);
  const sample = unread.length <= left ? unread : Array.from({ length: left }, (_, i) => unread[Math.floor(((i + 0.5) * unread.length) / left)] as RankedCandidate);
  let matchedSample = 0;
  for (let i = 0; i < sample.length; i += READ_AHEAD) {
    for (const matches of await reader.matchAll(sample.slice(i, i + READ_AHEAD))) if (matches) matchedSample++;
  }
  if (sample.length === unread.length) return { count: count + matchedSample, approximate: false };
  // Too many to read: the rate of the sample, or, with no budget left for one, of the notes read for the page.
  const rate = sample.length > 0 ? matchedSample / sample.length : reader.reads > 0 ? reader.matchedReads / reader.reads : 1;
  return { count: count + Math.round(unread.length * rate), approximate: true };
}
