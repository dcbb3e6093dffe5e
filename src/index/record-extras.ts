import type { PropertyScalar, StoredValue } from '../format/property-values.js';
import type { NoteTask, TaskPriority, TaskStatus } from '../format/tasks.js';
import type { NoteRecord } from '../vault/note.js';
import { bytesOf, copied, DamagedRecords, parseJsonBlob, StringColumn, TextColumn } from './string-column.js';

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

  /** The blobs, in the order RecordExtrasReader reads them. */
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

/** Values by index: a typed array, or a string column (string-column.ts). */
interface Column<V> {
  readonly length: number;
  at(index: number): V | undefined;
}

/** Reads one column's values one after another from a position, refusing to read past its end. */
class Cursor<V> {
  constructor(
    readonly values: Column<V>,
    public at = 0,
  ) {}

  next(): V {
    if (this.at >= this.values.length) throw new DamagedRecords('extras cut short');
    return this.values.at(this.at++) as V;
  }

  peek(): V | undefined {
    return this.at < this.values.length ? this.values.at(this.at) : undefined;
  }

  /** Throws unless every value was read. */
  done(): void {
    if (this.at !== this.values.length) throw new DamagedRecords('extras left over');
  }
}

/** The blobs of a section, one after the other: `expected` is a length the next one must have. */
export type NextBlob = (expected?: number) => Buffer;

/** Where one record's values start in each of several columns, one Uint32Array a column. */
class Starts {
  readonly of: Uint32Array[];
  constructor(count: number, columns: number) {
    this.of = Array.from({ length: columns }, () => new Uint32Array(count));
  }

  /** Cursors over `values`, standing where record `row` starts. */
  at<T extends readonly Column<unknown>[]>(row: number, values: T): { [K in keyof T]: Cursor<T[K] extends Column<infer V> ? V : never> } {
    return values.map((column, i) => new Cursor(column, (this.of[i] as Uint32Array)[row])) as never;
  }
}

/**
 * The records' properties and tasks from the blobs RecordExtrasWriter made,
 * checked whole when read (anything that does not add up throws
 * DamagedRecords then, never later) and decoded one record at a time, when
 * the record is made (record-table.ts).
 */
export class RecordExtrasReader {
  private readonly names: string[];
  private readonly propertyCounts: Uint32Array;
  private readonly propertyValues: [keys: Uint32Array, kinds: Uint8Array, numbers: Float64Array, lists: Uint32Array, texts: TextColumn];
  private readonly propertyStarts: Starts;
  private readonly taskCounts: Uint32Array;
  private readonly taskValues: [lines: Uint32Array, bits: Uint8Array, dates: Uint8Array, tagCounts: Uint32Array, tags: Uint32Array, texts: TextColumn];
  private readonly taskStarts: Starts;

  constructor(
    count: number,
    private readonly tagNames: readonly string[],
    next: NextBlob,
  ) {
    this.names = propertyNames(next());
    this.propertyCounts = copied(Uint32Array, next(count * 4));
    this.propertyValues = [copied(Uint32Array, next()), next(), copied(Float64Array, next()), copied(Uint32Array, next()), stringsOf(next)];
    this.propertyStarts = new Starts(count, this.propertyValues.length);
    this.taskCounts = copied(Uint32Array, next(count * 4));
    this.taskValues = [copied(Uint32Array, next()), next(), next(), copied(Uint32Array, next()), copied(Uint32Array, next()), stringsOf(next)];
    this.taskStarts = new Starts(count, this.taskValues.length);
    this.checkProperties(count);
    this.checkTasks(count);
  }

  /** Give `record`, made from row `row` of the other columns, its properties and tasks. */
  apply(record: NoteRecord, row: number): void {
    if ((this.propertyCounts[row] as number) > 0) record.properties = this.propertiesAt(row);
    if ((this.taskCounts[row] as number) > 0) record.tasks = this.tasksAt(row);
  }

  /**
   * Every property value walked once, noting where each record's start:
   * throws DamagedRecords on anything `propertiesAt` could not read. Plain
   * loops over the arrays: the same walk through `readProperties`' cursors
   * took some 250 ms of a 100,000-note warm start's main thread with the
   * tasks' (BENCHMARKS.md, issue 31).
   */
  private checkProperties(count: number): void {
    const [keys, kinds, numbers, lists, texts] = this.propertyValues;
    const starts = this.propertyStarts.of as [Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array];
    const names = this.names.length;
    let [k, v, n, l, t] = [0, 0, 0, 0, 0];
    for (let row = 0; row < count; row++) {
      [starts[0][row], starts[1][row], starts[2][row], starts[3][row], starts[4][row]] = [k, v, n, l, t];
      const keyCount = this.propertyCounts[row] as number;
      for (let key = 1; key < keyCount; key++) {
        if (k >= keys.length || v >= kinds.length) throw new DamagedRecords('extras cut short');
        if ((keys[k++] as number) >= names) throw new DamagedRecords('property name');
        const list = kinds[v] === LIST;
        let items = 1;
        if (list) {
          if (l >= lists.length) throw new DamagedRecords('extras cut short');
          items = lists[l++] as number;
          v++;
        }
        for (let item = 0; item < items; item++) {
          const kind = kinds[v++];
          if (kind === NUMBER) n++;
          else if (kind === TEXT) t++;
          else if (kind === undefined) throw new DamagedRecords('extras cut short');
          else if (kind > TRUE) throw new DamagedRecords('value kind');
          else if (kind === NULL && list) throw new DamagedRecords('list item');
        }
      }
    }
    if (k !== keys.length || v !== kinds.length || n !== numbers.length || l !== lists.length || t !== texts.length) throw new DamagedRecords('extras left over');
  }

  /** Every task walked once, as `checkProperties` walks the properties. */
  private checkTasks(count: number): void {
    const [lines, bits, dates, tagCounts, tags, texts] = this.taskValues;
    const starts = this.taskStarts.of as [Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array];
    const tagNames = this.tagNames.length;
    let [task, c, g, t] = [0, 0, 0, 0];
    for (let row = 0; row < count; row++) {
      [starts[0][row], starts[1][row], starts[2][row], starts[3][row], starts[4][row], starts[5][row]] = [task, task, task, c, g, t];
      const taskCount = this.taskCounts[row] as number;
      for (let end = task + taskCount - 1; task < end; task++) {
        const bit = bits[task];
        const present = dates[task];
        if (bit === undefined || present === undefined || task >= lines.length) throw new DamagedRecords('extras cut short');
        if ((bit & 3) >= STATUSES.length || ((bit >> 2) & 3) >= FIELDS.length || bit >> 4 >= PRIORITIES.length) throw new DamagedRecords('task bits');
        if (present >= TASK_TAGS << 1) throw new DamagedRecords('task dates');
        t++;
        for (let b = 0; b < DATE_FIELDS.length; b++) if (present & (1 << b)) t++;
        if (!(present & TASK_TAGS)) continue;
        if (c >= tagCounts.length) throw new DamagedRecords('extras cut short');
        for (let end = g + (tagCounts[c++] as number); g < end; g++) {
          const tag = tags[g];
          if (tag === undefined) throw new DamagedRecords('extras cut short');
          if (tag >= tagNames) throw new DamagedRecords('task tag');
        }
      }
    }
    if (task !== lines.length || task !== bits.length || task !== dates.length || c !== tagCounts.length || g !== tags.length || t !== texts.length) throw new DamagedRecords('extras left over');
  }

  private propertiesAt(row: number): Record<string, StoredValue> {
    return this.readProperties(row, this.propertyStarts.at(row, this.propertyValues));
  }

  private tasksAt(row: number): NoteTask[] {
    return this.readTasks(row, this.taskStarts.at(row, this.taskValues));
  }

  /** Record `row`'s properties, from cursors standing at its first. */
  private readProperties(row: number, [keys, kinds, numbers, lists, texts]: PropertyCursors): Record<string, StoredValue> {
    const keyCount = this.propertyCounts[row] as number;
    const properties: Record<string, StoredValue> = {};
    const values = { kinds, numbers, lists, texts };
    for (let k = 1; k < keyCount; k++) {
      const name = this.names[keys.next()];
      if (name === undefined) throw new DamagedRecords('property name');
      properties[name] = valueOf(values);
    }
    return properties;
  }

  /** Record `row`'s tasks, from cursors standing at its first. */
  private readTasks(row: number, [lines, bits, dates, tagCounts, tags, texts]: TaskCursors): NoteTask[] {
    const taskCount = this.taskCounts[row] as number;
    const tasks = new Array<NoteTask>(taskCount - 1);
    for (let t = 0; t < taskCount - 1; t++) {
      const bit = bits.next();
      // Checked when read (checkTasks): index 0 of FIELDS and PRIORITIES is "none".
      const status = STATUSES[bit & 3] as TaskStatus;
      const fields = FIELDS[(bit >> 2) & 3];
      const priority = PRIORITIES[bit >> 4];
      const task: NoteTask = { line: lines.next(), status, text: texts.next() };
      const present = dates.next();
      DATE_FIELDS.forEach((field, b) => {
        if (present & (1 << b)) task[field] = texts.next();
      });
      if (present & TASK_TAGS) task.tags = Array.from({ length: tagCounts.next() }, () => tagName(this.tagNames, tags.next()));
      if (priority !== undefined) task.priority = priority;
      if (fields !== undefined) task.fields = fields;
      tasks[t] = task;
    }
    return tasks;
  }
}

type PropertyCursors = readonly [Cursor<number>, Cursor<number>, Cursor<number>, Cursor<number>, Cursor<string>];
type TaskCursors = readonly [Cursor<number>, Cursor<number>, Cursor<number>, Cursor<number>, Cursor<number>, Cursor<string>];

function propertyNames(blob: Buffer): string[] {
  const names = parseJsonBlob(blob, 'property names');
  // recordProperties never keeps `__proto__`: a name that would set an object's prototype is damage.
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string' && name !== '__proto__')) throw new DamagedRecords('property names');
  return names as string[];
}

function stringsOf(next: NextBlob): TextColumn {
  const text = next();
  const lengths = next();
  return new TextColumn(lengths.length / 4, lengths, next(), text);
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

function tagName(tagNames: readonly string[], index: number): string {
  const name = tagNames[index];
  if (name === undefined) throw new DamagedRecords('task tag');
  return name;
}
