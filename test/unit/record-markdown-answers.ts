/**
 * Records the frozen old scanner's answers (markdown-legacy.ts) for every
 * body markdown-analyze.test.ts reads, into markdown-recorded.json. Run once,
 * before the frozen copy was deleted:
 *   node --import ./test/support/register-typescript.mjs test/unit/record-markdown-answers.ts
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateVault } from '../../bench/generate.js';
import { parseNoteFile } from '../../src/vault/parse.js';
import { OBSIDIAN_GROUPS, PLAIN_TEXT_CASES, SEARCH_TEXT_CASES, SNIPPET_CASES, TAG_GROUPS } from './markdown-cases.js';
import { COMMENT_HEAVY_FRAGMENTS, DISAGREEING_BODIES, FRAGMENTS, generatedDocuments, gluedBodies, HAND_WRITTEN, PARTING_FRAGMENTS } from './markdown-corpora.js';
import * as before from './markdown-legacy.js';
import { answerDigest, bodyKey, WHOLE_UP_TO, type Answers, type RecordedFile } from './markdown-recorded.js';

const SAMPLE_VAULT = fileURLToPath(new URL('../../sample-vault', import.meta.url));
const LIMITS = [1, 20, 40, 80, 299, 301];

async function noteBodies(dir: string): Promise<string[]> {
  const bodies: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) await walk(child);
      else if (entry.name.endsWith('.md')) {
        const content = await readFile(path.join(dir, child), 'utf8');
        bodies.push(parseNoteFile({ path: child, content, size: content.length, mtimeMs: 0, ctimeMs: 0, ino: 0, birthtimeMs: 0 }).body);
      }
    }
  };
  await walk('');
  return bodies.sort();
}

const dir = await mkdtemp(path.join(tmpdir(), 'dexi-markdown-'));
await generateVault(dir, { notes: 300, seed: 14 });
const generatedVault = await noteBodies(dir);
await rm(dir, { recursive: true, force: true });

const bodies = [
  ...TAG_GROUPS.flatMap(([, cases]) => cases.map(([, input]) => input)),
  ...PLAIN_TEXT_CASES.map(([, input]) => input),
  ...OBSIDIAN_GROUPS.flatMap(([, cases]) => cases.map(([, input]) => input)),
  ...SEARCH_TEXT_CASES.map(([, input]) => input),
  ...SNIPPET_CASES.map(([, input]) => input),
  ...HAND_WRITTEN,
  ...gluedBodies(),
  ...generatedDocuments(300, 20240611),
  ...generatedDocuments(300, 20250817, COMMENT_HEAVY_FRAGMENTS),
  ...generatedDocuments(1500, 14),
  ...generatedDocuments(1500, 1414, COMMENT_HEAVY_FRAGMENTS),
  ...PARTING_FRAGMENTS,
  ...generatedDocuments(1500, 2026, [...FRAGMENTS, ...PARTING_FRAGMENTS, ...PARTING_FRAGMENTS]),
  ...generatedDocuments(1500, 2027, [...COMMENT_HEAVY_FRAGMENTS, ...PARTING_FRAGMENTS, ...PARTING_FRAGMENTS]),
  ...DISAGREEING_BODIES,
  ...(await noteBodies(SAMPLE_VAULT)),
  ...generatedVault,
];
const limited: [string, number][] = [
  ...SNIPPET_CASES.filter(([, , limit]) => limit !== undefined).map(([, input, limit]) => [input, limit as number] as [string, number]),
  ...[...HAND_WRITTEN, ...gluedBodies()].flatMap((body) => LIMITS.map((limit) => [body, limit] as [string, number])),
];

const recorded: RecordedFile = {
  about:
    'The old scanner\'s answers (tags, plain text, snippet, search text), recorded by test/unit/record-markdown-answers.ts from its frozen copy test/unit/markdown-legacy.ts before both were deleted; read by markdown-recorded.ts.',
  answers: {},
  snippets: {},
};
for (const body of bodies) {
  const answers: Answers = [before.extractTags(body), before.toPlainText(body), before.makeSnippet(body), before.toSearchText(body)];
  recorded.answers[bodyKey(body)] = JSON.stringify(answers).length <= WHOLE_UP_TO ? answers : answers.map(answerDigest).join(' ');
}
for (const [body, limit] of limited) {
  const snippet = before.makeSnippet(body, limit);
  recorded.snippets[bodyKey(body, limit)] = JSON.stringify(snippet).length <= WHOLE_UP_TO ? [snippet] : answerDigest(snippet);
}
const out = fileURLToPath(new URL('./markdown-recorded.json', import.meta.url));
await writeFile(out, JSON.stringify(recorded, null, 0).replace(/,"(?=[0-9a-f]{12}":)/g, ',\n"') + '\n');
console.log(`${Object.keys(recorded.answers).length} bodies, ${Object.keys(recorded.snippets).length} limited snippets`);
