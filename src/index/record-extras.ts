import type { PropertyScalar, StoredValue } from '../format/property-values.js';
import type { NoteTask, TaskPriority, TaskStatus } from '../format/tasks.js';
import type { NoteRecord } from '../vault/note.js';
import { bytesOf, copied, DamagedRecords, decodeStringColumn, parseJsonBlob, StringColumn } from './string-column.js';

/*
 * The records' frontmatter properties and tasks in the index cache, by
 * column (record-columns.ts places these blobs after the other columns).
 * They were JSON in the extras, 5.6 MB of it at 20,000 generated notes
 * (every note keeps its `created` and `updated` as properties, 60 % a
 * status, and 1.8 tasks a note), parsed in one go by every warm start and
 * then assigned to the records; as columns, the records' section decodes
 * in some 17 % less CPU time (BENCHMARKS.md, issue 31's cold and warm
 * starts).
 *
 *   properties  names     JSON: the property names
 *               counts    Uint32 a record: 0 none, else 1 + its keys
 *               keys      Uint32 a key: index into names
 *               kinds     Uint8 a value, and one for each item of a list
 *               numbers   Float64 a number
 *               lists     Uint32 a list: its item count
 *               texts     a string column (string-column.ts): each text
 *   tasks       counts    Uint32 a record: 0 none, else 1 + its tasks
 *               lines     Uint32 a task
 *               bits      Uint8 a task: status, fields, priority
 *               dates     Uint8 a task: which dates it has; TASK_TAGS
 *               tagCounts Uint32 a task with tags
 *               tags      Uint32 a tag: index into the records' tag names
 *               texts     a string column: a task's text, then its dates
 */

/** A value's kind, in its byte. */
const [NULL, FALSE, TRUE, NUMBER, TEXT, LIST] = [0, 1, 2, 3, 4, 5] as const;

const STATUSES: readonly TaskStatus[] = ['open', 'done', 'cancelled'];
const FIELDS: readonly (NoteTask['fields'] | undefined)[] = [undefined, 'emoji', 'dataview'];
const PRIORITIES: readonly (TaskPriority | undefined)[] = [undefined, 'highest', 'high', 'medium', 'low', 'lowest'];
const DATE_FIELDS = ['due', 'scheduled', 'start', 'done', 'cancelled', 'created'] as const;
/** In a task's dates byte: it has tags. */
const TASK_TAGS = 1 << DATE_FIELDS.length;

/** Gathers the properties and tasks of records, one record at a time, in the order they are stored. */
export class RecordExtrasWriter {
  private readonly propertyCounts: number[] = [];
  private readonly names = new Map<string, number>();
  private readonly keys: number[] = [];
  private readonly kinds: number[] = [];
  private readonly numbers: number[] = [];
  private readonly lists: number[] = [];
  private readonly texts = new StringColumn();
  private readonly taskCounts: number[] = [];
  private readonly lines: number[] = [];
  private readonly bits: number[] = [];
  private readonly dates: number[] = [];
  private readonly tagCounts: number[] = [];
  private readonly tags: number[] = [];
  private readonly taskTexts = new StringColumn();

  /** `tagIndex` gives a tag's index among the records' tag names, adding it if new. */
  constructor(private readonly tagIndex: (tag: string) => number) {}

  add(record: NoteRecord): void {
    const { properties, tasks } = record;
    this.propertyCounts.push(properties === undefined ? 0 : Object.keys(properties).length + 1);
    if (properties !== undefined) {
      for (const [name, value] of Object.entries(properties)) {
        let index = this.names.get(name);
        if (index === undefined) this.names.set(name, (index = this.names.size));
        this.keys.push(index);
        this.addValue(value);
      }
    }
    this.taskCounts.push(tasks === undefined ? 0 : tasks.length + 1);
    for (const task of tasks ?? []) this.addTask(task);
  }

  private addValue(value: StoredValue): void {
    if (!Array.isArray(value)) {
      this.addScalar(value);
      return;
    }
    this.kinds.push(LIST);
    this.lists.push(value.length);
    for (const item of value) this.addScalar(item);
  }

  private addScalar(value: PropertyScalar | null): void {
    if (value === null) this.kinds.push(NULL);
    else if (typeof value === 'boolean') this.kinds.push(value ? TRUE : FALSE);
    else if (typeof value === 'number') {
      this.kinds.push(NUMBER);
      this.numbers.push(value);
    } else {
      this.kinds.push(TEXT);
      this.texts.add(value);
    }
  }

  private addTask(task: NoteTask): void {
    const priority = PRIORITIES.indexOf(task.priority);
    const fields = FIELDS.indexOf(task.fields);
    const status = STATUSES.indexOf(task.status);
    if (priority < 0 || fields < 0 || status < 0) throw new Error(`A task the cache cannot keep: ${JSON.stringify(task)}`);
    this.lines.push(task.line);
    this.bits.push(status | (fields << 2) | (priority << 4));
    this.taskTexts.add(task.text);
    let dates = 0;
    DATE_FIELDS.forEach((field, bit) => {
      const date = task[field];
      if (date === undefined) return;
      dates |= 1 << bit;
      this.taskTexts.add(date);
    });
    if (task.tags !== undefined) {
      dates |= TASK_TAGS;
      this.tagCounts.push(task.tags.length);
      for (const tag of task.tags) this.tags.push(this.tagIndex(tag));
    }
    this.dates.push(dates);
  }

  /** The blobs, in the order decodeRecordExtras reads them. */
  blobs(): Uint8Array[] {
    return [
      Buffer.from(JSON.stringify([...this.names.keys()]), 'utf8'),
      u32(this.propertyCounts),
      u32(this.keys),
      Uint8Array.from(this.kinds),
      bytesOf(Float64Array.from(this.numbers)),
      u32(this.lists),
      ...this.texts.blobs(),
      u32(this.taskCounts),
      u32(this.lines),
      Uint8Array.from(this.bits),
      Uint8Array.from(this.dates),
      u32(this.tagCounts),
      u32(this.tags),
      ...this.taskTexts.blobs(),
    ];
  }
}

function u32(values: readonly number[]): Uint8Array {
  return bytesOf(Uint32Array.from(values));
}

/** Reads one typed array after another, refusing to read past its end. */
class Cursor<V> {
  at = 0;
  constructor(readonly values: ArrayLike<V>) {}

  next(): V {
    if (this.at >= this.values.length) throw new DamagedRecords('extras cut short');
    return this.values[this.at++] as V;
  }

  peek(): V | undefined {
    return this.values[this.at];
  }

  /** Throws unless every value was read. */
  done(): void {
    if (this.at !== this.values.length) throw new DamagedRecords('extras left over');
  }
}

/** The blobs of a section, one after the other: `expected` is a length the next one must have. */
export type NextBlob = (expected?: number) => Buffer;

/** Give `records` (as decoded from the other columns) their properties and tasks, from the blobs RecordExtrasWriter made. */
export function decodeRecordExtras(records: NoteRecord[], tagNames: readonly string[], next: NextBlob): void {
  const count = records.length;
  const names = propertyNames(next());
  const propertyCounts = copied(Uint32Array, next(count * 4));
  const keys = new Cursor(copied(Uint32Array, next()));
  const kinds = new Cursor(next());
  const numbers = new Cursor(copied(Float64Array, next()));
  const lists = new Cursor(copied(Uint32Array, next()));
  const texts = new Cursor(stringsOf(next));
  const values = { kinds, numbers, lists, texts };
  for (let i = 0; i < count; i++) {
    const keyCount = propertyCounts[i] as number;
    if (keyCount === 0) continue;
    const properties: Record<string, StoredValue> = {};
    for (let k = 1; k < keyCount; k++) {
      const name = names[keys.next()];
      if (name === undefined) throw new DamagedRecords('property name');
      properties[name] = valueOf(values);
    }
    (records[i] as NoteRecord).properties = properties;
  }
  for (const cursor of [keys, kinds, numbers, lists, texts]) cursor.done();
  decodeTasks(records, tagNames, next);
}

function propertyNames(blob: Buffer): string[] {
  const names = parseJsonBlob(blob, 'property names');
  // recordProperties never keeps `__proto__`: a name that would set an object's prototype is damage.
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string' && name !== '__proto__')) throw new DamagedRecords('property names');
  return names as string[];
}

function stringsOf(next: NextBlob): string[] {
  const text = next();
  const lengths = next();
  return decodeStringColumn(lengths.length / 4, lengths, next(), text);
}

interface ValueCursors {
  kinds: Cursor<number>;
  numbers: Cursor<number>;
  lists: Cursor<number>;
  texts: Cursor<string>;
}

function valueOf(cursors: ValueCursors): StoredValue {
  if (cursors.kinds.peek() !== LIST) return scalarOf(cursors);
  cursors.kinds.next();
  const items = new Array<PropertyScalar>(cursors.lists.next());
  for (let i = 0; i < items.length; i++) {
    const item = scalarOf(cursors);
    if (item === null) throw new DamagedRecords('list item');
    items[i] = item;
  }
  return items;
}

function scalarOf({ kinds, numbers, texts }: ValueCursors): PropertyScalar | null {
  switch (kinds.next()) {
    case NULL:
      return null;
    case FALSE:
      return false;
    case TRUE:
      return true;
    case NUMBER:
      return numbers.next();
    case TEXT:
      return texts.next();
    default:
      throw new DamagedRecords('value kind');
  }
}

function decodeTasks(records: NoteRecord[], tagNames: readonly string[], next: NextBlob): void {
  const taskCounts = copied(Uint32Array, next(records.length * 4));
  const lines = new Cursor(copied(Uint32Array, next()));
  const bits = new Cursor(next());
  const dates = new Cursor(next());
  const tagCounts = new Cursor(copied(Uint32Array, next()));
  const tags = new Cursor(copied(Uint32Array, next()));
  const texts = new Cursor(stringsOf(next));
  for (let i = 0; i < records.length; i++) {
    const taskCount = taskCounts[i] as number;
    if (taskCount === 0) continue;
    const tasks = new Array<NoteTask>(taskCount - 1);
    for (let t = 0; t < tasks.length; t++) {
      const bit = bits.next();
      const status = STATUSES[bit & 3];
      const fields = FIELDS[(bit >> 2) & 3];
      const priority = PRIORITIES[bit >> 4];
      // Index 0 of FIELDS and PRIORITIES is "none": only an index past the end is damage.
      if (status === undefined || ((bit >> 2) & 3) >= FIELDS.length || bit >> 4 >= PRIORITIES.length) throw new DamagedRecords('task bits');
      const task: NoteTask = { line: lines.next(), status, text: texts.next() };
      const present = dates.next();
      if (present >= TASK_TAGS << 1) throw new DamagedRecords('task dates');
      DATE_FIELDS.forEach((field, b) => {
        if (present & (1 << b)) task[field] = texts.next();
      });
      if (present & TASK_TAGS) task.tags = Array.from({ length: tagCounts.next() }, () => tagName(tagNames, tags.next()));
      if (priority !== undefined) task.priority = priority;
      if (fields !== undefined) task.fields = fields;
      tasks[t] = task;
    }
    (records[i] as NoteRecord).tasks = tasks;
  }
  for (const cursor of [lines, bits, dates, tagCounts, tags, texts]) cursor.done();
}

function tagName(tagNames: readonly string[], index: number): string {
  const name = tagNames[index];
  if (name === undefined) throw new DamagedRecords('task tag');
  return name;
}
