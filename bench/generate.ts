/**
 * A deterministic synthetic vault for benchmarks.
 *
 * `generateVault(dir, {notes, seed, wordsPerNote})` writes Markdown notes
 * into `dir` (created if missing; meant to be empty): YAML frontmatter with
 * `id` (UUID v4-shaped, from the seeded PRNG), `title`, `created` and
 * `updated` spread over 2025, `tags` on some notes (flow or block lists,
 * nested tags included), `source: bookmark` + `source_url` on a few,
 * `status`, `priority` and `due` on many (`workProperties`), and a
 * `review:` block on some `flashcards` cards. Bodies average about
 * `wordsPerNote` words (each note aims for 0.4–1.4× of it and overshoots by
 * part of a block) with headings, paragraphs, bullet, numbered and task
 * lists, quotes, the odd code block (holding a `#word` that is not a tag),
 * `[[wikilinks]]` to earlier notes, external links, inline code, inline
 * `#hashtags` (200 tags, some nested like `#topic/sub`) and `@mentions`.
 *
 * Layout: 20 top folders × 5 subfolders (only folders that receive a note
 * are created); about 5% of notes sit at the root, 15% directly in a top
 * folder, the rest in subfolders. File names are the title, with ` 2`, ` 3`…
 * on a clash within a folder.
 *
 * Words come from a fixed vocabulary of about 3,000 tokens: ~100 function
 * words, ~400 real English base words, their regular inflections (plurals,
 * -s/-ed/-ing/-er, -ly/-ness, re-/un-) and noun+noun compounds picked with
 * a fixed PRNG. Words are drawn with a Zipf (s = 1) distribution over that
 * ranking, so search term frequencies look like real text. The vocabulary,
 * tag list and folder names do not depend on the seed; everything drawn for
 * the notes does. Same seed → byte-identical tree.
 *
 * `generateQueries(seed, n)` gives realistic 1–3 word queries from the same
 * vocabulary (content words only, Zipf-weighted).
 */

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatIso } from '../src/format/time.js';
import { createRng, type Rng } from '../test/support/random.js';

export interface GenerateOptions {
  notes: number;
  seed?: number;
  /** average body length in words; default 300 */
  wordsPerNote?: number;
}

export interface GenerateResult {
  /** notes written */
  notes: number;
  /** directories created below `dir` */
  folders: number;
  /** total bytes written (UTF-8) */
  bytes: number;
}

// ---------------------------------------------------------------------------
// Drawing from the seeded PRNG.

function randInt(rng: Rng, lo: number, hi: number): number {
  // inclusive bounds
  return lo + Math.floor(rng() * (hi - lo + 1));
}

function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

function shuffle<T>(rng: Rng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const tmp = items[i] as T;
    items[i] = items[j] as T;
    items[j] = tmp;
  }
  return items;
}

/** Zipf sampler over ranks 0..n-1 with P(r) ∝ 1/(r+1)^s. */
class Zipf {
  private readonly cdf: Float64Array;
  constructor(n: number, s = 1) {
    this.cdf = new Float64Array(n);
    let sum = 0;
    for (let r = 0; r < n; r++) {
      sum += 1 / Math.pow(r + 1, s);
      this.cdf[r] = sum;
    }
    for (let r = 0; r < n; r++) this.cdf[r] = (this.cdf[r] ?? 0) / sum;
  }
  sample(rng: Rng): number {
    const u = rng();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.cdf[mid] ?? 1) > u) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

// ---------------------------------------------------------------------------
// Word lists.

const FUNCTION_WORDS = `the of and to a in is that for it as with was on be by this are from at or
an but not have which can we will has more all their its one they also about there if when been what
so some would into other than then these how only our most may should each could after before over
through between both just very any where while because such new like make many first two well use
still even much under without here same few those every often within around across again never always
less until during since against among though whether either rather perhaps quite almost already yet`;

// Countable nouns (get a plural).
const NOUNS = `project meeting idea note book article paper design system process team product customer
market strategy goal task question answer problem solution model network server database query index
document report review draft chapter section summary outline plan schedule budget cost price value
feature release version issue ticket deadline milestone roadmap interview workshop conference talk
lecture course lesson exercise habit routine diet workout recipe ingredient kitchen garden trip flight
hotel city country river mountain forest season morning evening weekend holiday family friend parent
child school teacher student library museum song album movie film story character language word
sentence brain thought feeling mood emotion account invoice contract policy election investment stock
bond risk loan house apartment room office desk computer phone camera photo image video screen keyboard
browser website email message letter journal diary algorithm function variable framework compiler
protocol interface component module package dependency deployment cluster container pipeline metric
dashboard experiment hypothesis theory argument concept principle pattern method technique tool
resource platform service vendor partner client user community audience channel campaign brand
newsletter podcast episode habit quote highlight bookmark reference source author editor publisher
library archive folder file record entry list chart graph table column cell formula spreadsheet
presentation slide agenda decision action owner priority estimate result outcome lesson insight
benchmark cache token session request response error warning signal event trigger workflow template`;

// Uncountable nouns (no plural).
const MASS_NOUNS = `data research health sleep energy money music weather history culture grammar attention
evidence content feedback travel insurance finance knowledge software hardware traffic progress
writing reading learning focus memory`;

// Regular verbs: -s/-ed/-ing/-er need no consonant doubling.
const VERBS = `add allow analyze answer appear apply argue arrange ask assume attach attend avoid believe
borrow calculate change check clean collect compare compile complete connect consider contain continue
create decide deliver deploy describe design develop discover discuss document edit enjoy estimate
evaluate explain explore export extend fix follow gather generate handle help identify ignore imagine
import improve include increase install introduce invest invite join learn listen load look manage
measure mention merge migrate move notice observe open order organize own paint perform pick play
practice prepare present print produce publish pull push question reach receive record reduce refactor
remember remove render repeat replace request require resolve respond return save schedule search
select share sign solve start support test track train transform update visit walk want watch wonder
work summarize review plan sketch outline draft annotate collect bookmark tag archive sync backup
link query cache index parse format validate`;

const ADJECTIVES = `quick slow simple clear direct recent important careful helpful strong bright quiet fresh
ready happy busy easy heavy light rough smooth sharp soft warm cold calm brief rapid steady honest
formal normal final global local manual mental natural personal practical private rare regular remote
safe secure serious silent similar smart solid specific stable strange strict sudden tight typical
visual deep wide exact efficient effective elegant modern obvious optional perfect polite precise
proper useful basic central common complete correct critical current daily digital early equal
frequent general gentle large main minor narrow odd plain popular positive possible primary
public quiet raw real recent relevant simple slight social special strong subtle total usual valid
weekly annual visible`;

const TOP_FOLDERS = [
  'Projects', 'Areas', 'Resources', 'Archive', 'Journal', 'Meetings', 'Research', 'Reading',
  'Ideas', 'Work', 'Personal', 'Health', 'Finance', 'Travel', 'Recipes', 'Learning', 'Writing',
  'Code', 'People', 'Inbox',
] as const;

const MENTIONS = [
  'alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'mallory',
  'niaj', 'olivia', 'peggy', 'rupert', 'sybil', 'trent', 'victor', 'walter', 'yasmin', 'zoe',
  'anna_k', 'ben-lee', 'chen', 'dmitri', 'elena', 'fatima', 'goran', 'hana', 'igor', 'jonas',
  'kofi', 'lena', 'marco', 'nadia', 'oscar', 'priya', 'quinn', 'ravi', 'sofia',
] as const;

const DOMAINS = [
  'example.com', 'blog.example.org', 'news.example.net', 'docs.example.io', 'en.wikipedia.org',
  'github.com', 'medium.com', 'arxiv.org', 'www.nature.com', 'stackoverflow.com',
] as const;

const TOPIC_PARENTS = ['project', 'ml', 'reading', 'health', 'finance', 'travel', 'work', 'idea', 'course', 'people'];

function words(list: string): string[] {
  return list.split(/\s+/).filter((w) => w.length > 0);
}

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

function isConsonantY(w: string): boolean {
  return w.endsWith('y') && w.length > 1 && !VOWELS.has(w.charAt(w.length - 2));
}

function plural(w: string): string {
  if (/(s|x|z|ch|sh)$/.test(w)) return `${w}es`;
  if (isConsonantY(w)) return `${w.slice(0, -1)}ies`;
  return `${w}s`;
}

function verbForms(w: string): string[] {
  const third = plural(w);
  let past: string;
  let ing: string;
  let er: string;
  if (w.endsWith('e')) {
    past = `${w}d`;
    ing = w.endsWith('ee') ? `${w}ing` : `${w.slice(0, -1)}ing`;
    er = `${w}r`;
  } else if (isConsonantY(w)) {
    past = `${w.slice(0, -1)}ied`;
    ing = `${w}ing`;
    er = `${w.slice(0, -1)}ier`;
  } else {
    past = `${w}ed`;
    ing = `${w}ing`;
    er = `${w}er`;
  }
  return [third, past, ing, er];
}

function adjectiveForms(w: string): string[] {
  if (w.endsWith('ic')) return [`${w}ally`, `${w}ness`];
  if (w.endsWith('le')) return [`${w.slice(0, -1)}y`, `${w}ness`];
  if (isConsonantY(w)) return [`${w.slice(0, -1)}ily`, `${w.slice(0, -1)}iness`];
  if (w.endsWith('ly')) return [`${w}ness`];
  return [`${w}ly`, `${w}ness`];
}

const YAML_UNSAFE = new Set(['true', 'false', 'null', 'yes', 'no', 'on', 'off', 'y', 'n']);
const VOCABULARY_SIZE = 3000;

interface Vocabulary {
  /** all words, most frequent first */
  words: string[];
  /** how many leading entries of `words` are function words */
  functionCount: number;
  /** base content words usable in titles and folder names */
  baseContent: string[];
  countableNouns: string[];
  tags: string[];
}

let cachedVocabulary: Vocabulary | undefined;

function buildVocabulary(): Vocabulary {
  const rng = createRng(0x5eed_0001); // fixed: the vocabulary never depends on the seed
  const seen = new Set<string>();
  const out: string[] = [];
  // Content words never spell a YAML keyword, so a one-word title or tag stays a string.
  const add = (list: string[], content = true): void => {
    for (const w of list) {
      if (!seen.has(w) && !(content && YAML_UNSAFE.has(w)) && /^[a-z]+$/.test(w)) {
        seen.add(w);
        out.push(w);
      }
    }
  };

  add(words(FUNCTION_WORDS), false);
  const functionCount = out.length;

  const nouns = [...new Set(words(NOUNS))];
  const mass = [...new Set(words(MASS_NOUNS))];
  const verbs = [...new Set(words(VERBS))];
  const adjectives = [...new Set(words(ADJECTIVES))];

  // Base words first (common), then inflections, then derived/rare forms.
  const baseContent = shuffle(rng, [...new Set([...nouns, ...mass, ...verbs, ...adjectives])]);
  add(baseContent);
  add(shuffle(rng, [...nouns.map(plural), ...verbs.flatMap(verbForms), ...adjectives.flatMap(adjectiveForms)]));
  add(
    shuffle(rng, [
      ...verbs.filter((v) => !v.startsWith('re')).flatMap((v) => [`re${v}`, ...verbForms(`re${v}`).slice(0, 3)]),
      ...adjectives.map((a) => `un${a}`),
    ]),
  );
  // Top up with noun+noun compounds ("projectplan", "datastore"-like).
  const compoundParts = [...nouns, ...mass];
  let guard = 0;
  while (out.length < VOCABULARY_SIZE && guard++ < 100_000) {
    const a = pick(rng, compoundParts);
    const b = pick(rng, compoundParts);
    if (a !== b) add([`${a}${b}`]);
  }

  // 200 tags: the review deck tag, 159 flat (nouns) and 40 nested topic/sub.
  const tagSet = new Set<string>(['flashcards']);
  for (const w of shuffle(rng, [...nouns, ...mass])) {
    if (tagSet.size >= 160) break;
    tagSet.add(w);
  }
  while (tagSet.size < 200) {
    tagSet.add(`${pick(rng, TOPIC_PARENTS)}/${pick(rng, nouns)}`);
  }
  const tags = shuffle(rng, [...tagSet]);

  return { words: out, functionCount, baseContent, countableNouns: nouns, tags };
}

function vocabulary(): Vocabulary {
  cachedVocabulary ??= buildVocabulary();
  return cachedVocabulary;
}

/** The generator's vocabulary, most frequent first (function words lead). */
export function getVocabulary(): readonly string[] {
  return vocabulary().words;
}

/** The generator's tag names (without `#`), including nested ones like `ml/papers`. */
export function getTags(): readonly string[] {
  return vocabulary().tags;
}

// ---------------------------------------------------------------------------
// Samplers shared by notes and queries.

interface Samplers {
  vocab: Vocabulary;
  word: Zipf; // over vocab.words
  content: Zipf; // over content words (ranks after the function words)
  tag: Zipf;
  folder: Zipf;
  subfolders: string[][];
}

let cachedSamplers: Samplers | undefined;

function samplers(): Samplers {
  if (cachedSamplers) return cachedSamplers;
  const vocab = vocabulary();
  const rng = createRng(0x5eed_0002);
  const subfolders = TOP_FOLDERS.map(() => {
    const names = new Set<string>();
    while (names.size < 5) names.add(capitalize(pick(rng, vocab.countableNouns.slice(0, 120))));
    return [...names];
  });
  cachedSamplers = {
    vocab,
    word: new Zipf(vocab.words.length, 1),
    content: new Zipf(vocab.words.length - vocab.functionCount, 1),
    tag: new Zipf(vocab.tags.length, 1),
    folder: new Zipf(TOP_FOLDERS.length, 0.7),
    subfolders,
  };
  return cachedSamplers;
}

function capitalize(w: string): string {
  return w.charAt(0).toUpperCase() + w.slice(1);
}

function contentWord(s: Samplers, rng: Rng): string {
  return s.vocab.words[s.vocab.functionCount + s.content.sample(rng)] ?? 'note';
}

function anyWord(s: Samplers, rng: Rng): string {
  return s.vocab.words[s.word.sample(rng)] ?? 'the';
}

function tagName(s: Samplers, rng: Rng): string {
  return s.vocab.tags[s.tag.sample(rng)] ?? 'misc';
}

/** 1–3 word queries drawn from the generator's content vocabulary. */
export function generateQueries(seed: number, n: number): string[] {
  const s = samplers();
  const rng = createRng((Math.floor(seed) ^ 0x9e37_79b9) >>> 0);
  const queries: string[] = [];
  for (let i = 0; i < n; i++) {
    const u = rng();
    const len = u < 0.45 ? 1 : u < 0.85 ? 2 : 3;
    const terms: string[] = [];
    let guard = 0;
    while (terms.length < len && guard++ < 50) {
      const w = contentWord(s, rng);
      if (!terms.includes(w)) terms.push(w);
    }
    queries.push(terms.join(' '));
  }
  return queries;
}

// ---------------------------------------------------------------------------
// Note rendering.

const YEAR_START_MS = Date.UTC(2025, 0, 1);
const YEAR_SECONDS = 365 * 24 * 60 * 60;

function uuid(rng: Rng): string {
  let hex = '';
  for (let i = 0; i < 4; i++) hex += Math.floor(rng() * 4294967296).toString(16).padStart(8, '0');
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function makeTitle(s: Samplers, rng: Rng): string {
  const len = randInt(rng, 2, 5);
  const parts: string[] = [];
  let guard = 0;
  while (parts.length < len && guard++ < 50) {
    const w = contentWord(s, rng);
    if (!parts.includes(w)) parts.push(w);
  }
  return parts.map(capitalize).join(' ');
}

interface Ctx {
  s: Samplers;
  rng: Rng;
  titles: string[]; // titles of notes generated so far (link targets)
}

/** A sentence; returns [text, words]. */
function sentence(ctx: Ctx, minWords: number, maxWords: number): [string, number] {
  const { s, rng } = ctx;
  const len = randInt(rng, minWords, maxWords);
  const parts: string[] = [];
  let count = 0;
  for (let i = 0; i < len; i++) {
    const u = rng();
    if (u < 0.015) {
      parts.push(`#${tagName(s, rng)}`);
    } else if (u < 0.022) {
      parts.push(`@${pick(rng, MENTIONS)}`);
    } else if (u < 0.03 && ctx.titles.length > 0) {
      const target = ctx.titles[Math.floor(rng() * ctx.titles.length)] ?? 'Home';
      parts.push(`[[${target}]]`);
    } else if (u < 0.034) {
      const label = `${contentWord(s, rng)} ${contentWord(s, rng)}`;
      parts.push(`[${label}](https://${pick(rng, DOMAINS)}/${contentWord(s, rng)}-${contentWord(s, rng)})`);
      count += 1;
    } else if (u < 0.037) {
      parts.push(`\`${contentWord(s, rng)}\``);
    } else {
      parts.push(anyWord(s, rng));
    }
    count += 1;
    if (i < len - 1 && rng() < 0.08) parts[parts.length - 1] += ',';
  }
  const first = parts[0] ?? 'Note';
  parts[0] = /^[a-z]/.test(first) ? capitalize(first) : first;
  return [`${parts.join(' ')}${rng() < 0.06 ? '?' : '.'}`, count];
}

function paragraph(ctx: Ctx): [string, number] {
  const n = randInt(ctx.rng, 2, 5);
  const out: string[] = [];
  let count = 0;
  for (let i = 0; i < n; i++) {
    const [text, c] = sentence(ctx, 5, 16);
    out.push(text);
    count += c;
  }
  return [out.join(' '), count];
}

function renderBody(ctx: Ctx, title: string, targetWords: number): string {
  const { s, rng } = ctx;
  const blocks: string[] = [];
  let count = 0;
  if (rng() < 0.3) blocks.push(`# ${title}`);
  let lastWasHeading = false;
  while (count < targetWords) {
    const u = rng();
    if (u < 0.15 && !lastWasHeading && blocks.length > 0) {
      const level = rng() < 0.8 ? '##' : '###';
      const n = randInt(rng, 1, 4);
      const hw: string[] = [];
      for (let i = 0; i < n; i++) hw.push(contentWord(s, rng));
      blocks.push(`${level} ${hw.map(capitalize).join(' ')}`);
      count += n;
      lastWasHeading = true;
      continue;
    }
    lastWasHeading = false;
    if (u < 0.35) {
      const items = randInt(rng, 2, 6);
      const kind = rng();
      const lines: string[] = [];
      for (let i = 0; i < items; i++) {
        const [text, c] = sentence(ctx, 3, 10);
        const marker = kind < 0.2 ? (rng() < 0.4 ? '- [x] ' : '- [ ] ') : kind < 0.32 ? `${i + 1}. ` : '- ';
        lines.push(`${marker}${text.replace(/\.$/, '')}`);
        count += c;
      }
      blocks.push(lines.join('\n'));
    } else if (u < 0.38) {
      const [text, c] = sentence(ctx, 8, 20);
      blocks.push(`> ${text}`);
      count += c;
    } else if (u < 0.40) {
      const lines: string[] = [];
      const n = randInt(rng, 2, 5);
      for (let i = 0; i < n; i++) {
        // `#word` inside a code block is not a tag: keeps tag parsers honest.
        lines.push(`${contentWord(s, rng)}(${contentWord(s, rng)}) // #${contentWord(s, rng)}`);
      }
      blocks.push(`\`\`\`\n${lines.join('\n')}\n\`\`\``);
      count += n * 3;
    } else {
      const [text, c] = paragraph(ctx);
      blocks.push(text);
      count += c;
    }
  }
  if (rng() < 0.25) {
    const n = randInt(rng, 1, 3);
    const t: string[] = [];
    for (let i = 0; i < n; i++) t.push(`#${tagName(s, rng)}`);
    blocks.push(`Tags: ${[...new Set(t)].join(' ')}`);
  }
  return `${blocks.join('\n\n')}\n`;
}

const STATUSES = ['active', 'active', 'waiting', 'done', 'done', 'done', 'someday'] as const;

/**
 * The properties a person's working notes carry, for list_notes `where`:
 * `status` on 60 % of notes (active, waiting, done, someday), `priority` 1–5
 * on 40 %, `due` (a date in 2025) on 25 %. Drawn from a generator seeded by
 * the note's id, so every other draw of the vault is as it was before they
 * were added.
 */
function workProperties(id: string): string[] {
  const rng = createRng(Number.parseInt(id.replace(/-/g, '').slice(0, 8), 16));
  const lines: string[] = [];
  if (rng() < 0.6) lines.push(`status: ${pick(rng, STATUSES)}`);
  if (rng() < 0.4) lines.push(`priority: ${randInt(rng, 1, 5)}`);
  if (rng() < 0.25) lines.push(`due: ${formatIso(new Date(YEAR_START_MS + Math.floor(rng() * 365) * 86_400_000)).slice(0, 10)}`);
  return lines;
}

interface RenderedNote {
  folder: string; // '' for root
  title: string;
  content: string;
}

function renderNote(ctx: Ctx, wordsPerNote: number): RenderedNote {
  const { s, rng } = ctx;

  // Folder.
  let folder = '';
  const fu = rng();
  if (fu >= 0.05) {
    const top = s.folder.sample(rng);
    const topName = TOP_FOLDERS[top] ?? 'Inbox';
    folder = fu < 0.2 ? topName : `${topName}/${pick(rng, s.subfolders[top] ?? ['Misc'])}`;
  }

  const id = uuid(rng);
  const title = makeTitle(s, rng);
  const createdSec = Math.floor(rng() * YEAR_SECONDS);
  const updatedSec = rng() < 0.4 ? createdSec : createdSec + Math.floor(rng() * (YEAR_SECONDS - createdSec));
  const created = new Date(YEAR_START_MS + createdSec * 1000);
  const updated = new Date(YEAR_START_MS + updatedSec * 1000);

  const fm: string[] = ['---', `id: ${id}`, `title: ${title}`, `created: ${formatIso(created)}`, `updated: ${formatIso(updated)}`];

  if (rng() < 0.05) {
    const slug = title.toLowerCase().replace(/ /g, '-');
    fm.push('source: bookmark', `source_url: https://${pick(rng, DOMAINS)}/${slug}`);
  }

  const tags: string[] = [];
  const isCard = rng() < 0.02;
  if (isCard) tags.push('flashcards');
  if (isCard || rng() < 0.3) {
    const n = randInt(rng, 1, 3);
    for (let i = 0; i < n; i++) {
      const t = tagName(s, rng);
      if (!tags.includes(t)) tags.push(t);
    }
  }
  if (tags.length > 0) {
    if (rng() < 0.5) fm.push(`tags: [${tags.join(', ')}]`);
    else fm.push('tags:', ...tags.map((t) => `  - ${t}`));
  }
  if (isCard && rng() < 0.5) {
    const reps = randInt(rng, 1, 6);
    const interval = reps === 1 ? 1 : reps === 2 ? 6 : randInt(rng, 10, 120);
    const ease = (randInt(rng, 130, 280) / 100).toFixed(2).replace(/0$/, '');
    const due = new Date(updated.getTime() + interval * 86_400_000);
    fm.push('review:', `  due: ${formatIso(due)}`, `  interval: ${interval}`, `  ease: ${ease}`, `  repetitions: ${reps}`);
  }
  fm.push(...workProperties(id));
  fm.push('---');

  const target = Math.max(1, Math.round(wordsPerNote * (0.4 + rng())));
  const body = renderBody(ctx, title, target);
  return { folder, title, content: `${fm.join('\n')}\n${body}` };
}

// ---------------------------------------------------------------------------

const BATCH_SIZE = 500;

export async function generateVault(dir: string, opts: GenerateOptions): Promise<GenerateResult> {
  const total = opts.notes;
  if (!Number.isInteger(total) || total < 0) throw new RangeError('notes must be a non-negative integer');
  const wordsPerNote = opts.wordsPerNote ?? 300;
  if (!(wordsPerNote > 0)) throw new RangeError('wordsPerNote must be positive');
  const seed = opts.seed ?? 1;

  const ctx: Ctx = { s: samplers(), rng: createRng(seed), titles: [] };
  await mkdir(dir, { recursive: true });

  const createdDirs = new Set<string>();
  const usedNames = new Map<string, Set<string>>(); // folder → lower-cased file names
  let bytes = 0;
  let pending: Promise<unknown> = Promise.resolve();

  for (let start = 0; start < total; start += BATCH_SIZE) {
    const end = Math.min(total, start + BATCH_SIZE);
    const files: Array<[string, string]> = [];
    const newDirs: string[] = [];
    for (let i = start; i < end; i++) {
      const note = renderNote(ctx, wordsPerNote);
      let names = usedNames.get(note.folder);
      if (!names) {
        names = new Set();
        usedNames.set(note.folder, names);
      }
      let name = note.title;
      for (let k = 2; names.has(name.toLowerCase()); k++) name = `${note.title} ${k}`;
      names.add(name.toLowerCase());
      ctx.titles.push(name);

      if (note.folder !== '' && !createdDirs.has(note.folder)) {
        const slash = note.folder.indexOf('/');
        if (slash > 0) createdDirs.add(note.folder.slice(0, slash));
        createdDirs.add(note.folder);
        newDirs.push(note.folder);
      }
      const rel = note.folder === '' ? `${name}.md` : `${note.folder}/${name}.md`;
      files.push([rel, note.content]);
      bytes += Buffer.byteLength(note.content, 'utf8');
    }
    // Render the next batch while this one is written.
    await pending;
    pending = (async () => {
      await Promise.all(newDirs.map((d) => mkdir(join(dir, d), { recursive: true })));
      await Promise.all(files.map(([rel, content]) => writeFile(join(dir, rel), content, 'utf8')));
    })();
  }
  await pending;

  return { notes: total, folders: createdDirs.size, bytes };
}
