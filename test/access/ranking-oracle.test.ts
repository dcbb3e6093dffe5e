import { afterEach, describe, expect, it } from 'vitest';
import { connect, removeDir, writeVault, type Harness } from '../support/helpers.js';

/**
 * Issue 15, finding 3: BM25's note count, term frequencies and average
 * lengths were vault-wide, so the order of two probe notes told a bounded
 * connection whether a word occurs outside its boundary. Now a bounded
 * connection's scores are those of a vault holding only what it sees: the
 * same answers, in the same order, whatever lies outside.
 */

const WORK = {
  'Work/Plan.md': '---\nid: 00000000-0000-4000-8000-000000000001\n---\nThe quarterly plan mentions budget and hiring.\n',
  'Work/Notes.md': '---\nid: 00000000-0000-4000-8000-000000000002\n---\nHiring notes: budget review, salary bands are not here.\n',
  'Work/Long.md': `---\nid: 00000000-0000-4000-8000-000000000003\n---\n${'Meeting minutes about the roadmap. '.repeat(40)}\n`,
};

/** Outside the boundary: nothing at all, or the probe word in every note. */
function vault(outside: 'none' | 'salary'): Promise<string> {
  const files: Record<string, string> = { ...WORK };
  if (outside === 'salary') {
    for (let i = 0; i < 40; i++) files[`Private/Pay ${i}.md`] = `Salary ${i}: salary review, salary history, salary salary.\n`;
  }
  return writeVault(files);
}

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) {
    await h.close();
    await removeDir(h.dir);
  }
});

type Page = { items: { title: string }[]; total: number };

/** What a `--folder Work` connection learns from probes and searches, by titles (the probes' ids are new each time). */
async function probe(outside: 'none' | 'salary'): Promise<unknown[]> {
  const h = await connect({ dir: await vault(outside), folder: 'Work' });
  harnesses.push(h);
  await h.ok('create_note', { title: 'Probe one', text: 'salary' });
  await h.ok('create_note', { title: 'Probe two', text: 'qxqjzv' });
  const answers: unknown[] = [];
  for (const query of ['salary qxqjzv', 'salary', 'qxqjzv salary budget', 'hiring salary', 'budget', 'sala', 'salry', 'meeting roadmap']) {
    const page = await h.ok<Page>('search_notes', { query, size: 20 });
    answers.push([query, page.total, page.items.map((item) => item.title)]);
  }
  return answers;
}

describe('ranking under a boundary', () => {
  it('gives the same totals and order whether or not a word fills the notes outside', async () => {
    const [without, withSalary] = await Promise.all([probe('none'), probe('salary')]);
    expect(withSalary).toEqual(without);
    // The probes are found: the comparison is not between two empty answers.
    expect(without[0]).toEqual(['salary qxqjzv', 3, expect.arrayContaining(['Probe one', 'Probe two', 'Notes'])]);
  });
});
