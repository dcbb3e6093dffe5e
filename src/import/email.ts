import { createReadStream } from 'node:fs';
import { lstat, open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import PostalMime from 'postal-mime';
import type { Address, Attachment, Email } from 'postal-mime';
import { DECODER_LOSES_WINDOWS_1252, windows1252C1 } from './charset.js';
import { convertHtml, ConversionError } from './convert-pool.js';
import { BODY_LIMIT_BYTES } from './cut-body.js';
import { tidyMarkdown } from './tidy-markdown.js';
import { readError, walkMailFolder, type MailFile } from './mail-files.js';
import { escapePlainText } from './plain-text.js';
import { DexiError } from '../vault/errors.js';

/** One message as the importer needs it: who, when, what, and the body as Markdown. */
export interface EmailMessage {
  /** Without angle brackets, trimmed. */
  messageId?: string;
  /** Decoded; '' when there is none. */
  subject: string;
  /** `Name <addr>` or `addr`. */
  from?: string;
  to: string[];
  cc: string[];
  /** Undefined when the header is missing or is no date. */
  date?: Date;
  /** Markdown: the plain-text part when there is one, else the HTML part converted; '' when neither. */
  body: string;
  /**
   * When `body` holds only the start of a plain-text body too long for a
   * note (cut-body.ts), the size of the whole in bytes: the rest is never
   * escaped, which on a mail of megabytes took seconds.
   */
  wholeBodyBytes?: number;
  /** File names of the attachments the sender attached (not images that are part of the HTML, not parts without a name). */
  attachmentNames: string[];
}

/** A message or a file that cannot be used, told in a sentence fit to show the user as it is. */
export class EmailError extends DexiError {
  constructor(message: string) {
    super(message);
    this.name = 'EmailError';
  }
}

export type EmailSource = { label: string; raw: Buffer } | { label: string; error: string };

export function formatAddress(a: { name?: string; address?: string }): string {
  const name = a.name?.trim() ?? '';
  const address = a.address?.trim() ?? '';
  if (name && address && name !== address) return `${name} <${address}>`;
  return address || name;
}

/** Group syntax (`Team: a@x, b@y;`) stands for its members; an empty group (`undisclosed-recipients:;`) for nobody. */
function mailboxes(addresses: Address[] | undefined): string[] {
  const out: string[] = [];
  for (const a of addresses ?? []) {
    for (const mailbox of a.group ?? [a]) {
      const text = formatAddress(mailbox);
      if (text) out.push(text);
    }
  }
  return out;
}

// A message some tools save without its envelope headers still says it is MIME: a version, or a multipart body.
const KNOWN_FIELD = /^(?:(?:from|to|date|subject|message-id|mime-version)[ \t]*:|content-type[ \t]*:[ \t]*multipart\/)/im;
// RFC 5322 field name: printable ASCII except the colon, then the colon.
const FIELD_LINE = /^[!-9;-~]+[ \t]*:/;
// postal-mime refuses header blocks past 2 MiB anyway; looking further would only read an attachment.
const HEADER_SCAN_LIMIT = 2 * 1024 * 1024;

const isWhitespace = (b: number | undefined): boolean => b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a;

/** The bytes after the lines of only spaces and tabs a file starts with; a message or mbox never starts with one. */
function afterBlankLines(bytes: Buffer): Buffer {
  let start = 0;
  for (let i = 0; i < bytes.length && isWhitespace(bytes[i]); i++) if (bytes[i] === 0x0a) start = i + 1;
  return bytes.subarray(start);
}

/** The bytes postal-mime should see: without a byte-order mark, blank lines before the headers, or an mbox `From ` envelope line some tools leave on a single saved message. */
function stripEnvelope(raw: Buffer): Buffer {
  let bytes = raw;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  bytes = afterBlankLines(bytes);
  if (looksLikeMbox(bytes)) {
    const end = bytes.indexOf(0x0a);
    bytes = end < 0 ? bytes.subarray(bytes.length) : bytes.subarray(end + 1);
  }
  return bytes;
}

/**
 * postal-mime never refuses input: an empty buffer is a message with no
 * headers, and every line of a PDF becomes a "header". So whether the bytes are
 * mail at all is decided here, from the header block before the first blank line.
 */
function refusal(bytes: Buffer): string | undefined {
  if (bytes.length === 0 || bytes.every(isWhitespace)) {
    return 'This is not an e-mail message: it is empty.';
  }
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0) {
    return 'This is an Outlook .msg file, not an e-mail message in the standard format: save it from Outlook as .eml, or export the folder as mbox, and import that.';
  }
  const head = bytes.subarray(0, HEADER_SCAN_LIMIT);
  let end = head.length;
  for (const blank of ['\n\n', '\n\r\n']) {
    const at = head.indexOf(blank);
    if (at >= 0 && at < end) end = at;
  }
  // Latin-1 maps each byte to one character, so the ASCII tests below see the bytes as they are.
  const block = head.subarray(0, end).toString('latin1');
  if (!FIELD_LINE.test(block) || !KNOWN_FIELD.test(block)) {
    return 'This is not an e-mail message: it has no mail headers (From, To, Subject, Date, Message-ID or MIME-Version).';
  }
  return undefined;
}

/**
 * postal-mime decodes with TextDecoder, which on Node since 20.18.3 and
 * 22.13.0 reads windows-1252 as Latin-1 (see charset.ts). Those C1 controls
 * never stand in mail text, so on such a runtime they are put back.
 */
function repairC1(text: string): string;
function repairC1(text: string | undefined): string | undefined;
function repairC1(text: string | undefined): string | undefined {
  if (!DECODER_LOSES_WINDOWS_1252 || text === undefined) return text;
  return windows1252C1(text);
}

function repairAddresses(addresses: Address[] | undefined): Address[] | undefined {
  return addresses?.map((a) => (a.group ? { ...a, name: repairC1(a.name), group: a.group.map((m) => ({ ...m, name: repairC1(m.name) })) } : { ...a, name: repairC1(a.name) }));
}

function messageIdOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const bracketed = /<([^<>]*)>/.exec(value);
  const id = (bracketed ? bracketed[1] ?? '' : value).trim();
  return id || undefined;
}

function dateOf(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  // postal-mime hands back the header as it was when it does not parse as a date.
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Images the HTML shows by Content-ID are part of the body, not something the sender attached. */
function attachmentNamesOf(attachments: Attachment[]): string[] {
  return attachments.filter((a) => a.filename && !(a.related && a.disposition !== 'attachment')).map((a) => a.filename ?? '');
}

// Without a base, htmlToMarkdown keeps every href as written; against `about:blank`
// relative and `javascript:`/`cid:` addresses fail or lose their address, and only
// web and mail links survive. Mail is hostile input, so that filter is wanted here.
const NO_BASE = 'about:blank';

async function bodyOf(email: Email): Promise<Pick<EmailMessage, 'body' | 'wholeBodyBytes'>> {
  const text = tidyMarkdown(repairC1(email.text ?? ''));
  // A character is at least a byte, so one more than the limit in characters is past the limit in bytes.
  if (text.length > BODY_LIMIT_BYTES + 1) return { body: escapePlainText(text.slice(0, BODY_LIMIT_BYTES + 1)), wholeBodyBytes: Buffer.byteLength(text) };
  if (text) return { body: escapePlainText(text) };
  if (!email.html) return { body: '' };
  try {
    return { body: await convertHtml(repairC1(email.html), NO_BASE) };
  } catch (error) {
    // The note is still made: the message itself is kept whole in its .eml attachment.
    if (error instanceof ConversionError) return { body: `The text of this message could not be shown here: ${error.reason} It is kept whole in the attached .eml file.` };
    throw error;
  }
}

async function postalParse(bytes: Buffer, forceRfc822Attachments: boolean): Promise<Email> {
  try {
    return await PostalMime.parse(bytes, { forceRfc822Attachments });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new EmailError(`This e-mail message could not be read: ${reason.replace(/\.$/, '')}.`);
  }
}

/** Reads one message (the bytes of an .eml file or of one mbox entry). Throws EmailError when the bytes are not mail. */
export async function parseEmail(raw: Buffer): Promise<EmailMessage> {
  const bytes = stripEnvelope(raw);
  const refused = refusal(bytes);
  if (refused) throw new EmailError(refused);

  // postal-mime inlines a forwarded message and merges the forwarded message's
  // attachments into the outer list. Parsed with forwarded messages kept whole,
  // the list holds only this message's own; the body then needs the usual parse.
  const own = await postalParse(bytes, true);
  const email = own.attachments.some((a) => a.mimeType === 'message/rfc822') ? await postalParse(bytes, false) : own;

  const message: EmailMessage = {
    subject: repairC1(email.subject ?? '').trim(),
    to: mailboxes(repairAddresses(email.to)),
    cc: mailboxes(repairAddresses(email.cc)),
    ...(await bodyOf(email)),
    attachmentNames: attachmentNamesOf(own.attachments).map((name) => repairC1(name)),
  };
  const messageId = messageIdOf(email.messageId);
  if (messageId !== undefined) message.messageId = messageId;
  const from = mailboxes(repairAddresses(email.from && [email.from]))[0];
  if (from !== undefined) message.from = from;
  const date = dateOf(email.date);
  if (date !== undefined) message.date = date;
  return message;
}

const FROM_ = Buffer.from('From ');

/** Whether a file's first bytes are an mbox separator line. */
export function looksLikeMbox(head: Buffer): boolean {
  return head.length >= FROM_.length && head.subarray(0, FROM_.length).equals(FROM_);
}

/**
 * Whether a file's first bytes are an mbox separator line, after any blank
 * lines: git's `sample.mbox` and files cut from a mail archive by hand start
 * with some, and `git mailsplit` skips them.
 */
export function startsLikeMbox(head: Buffer): boolean {
  return looksLikeMbox(afterBlankLines(head));
}

function isBlankLine(line: Buffer): boolean {
  return (line.length === 1 && line[0] === 0x0a) || (line.length === 2 && line[0] === 0x0d && line[1] === 0x0a);
}

/** `>From `, `>>From `…: a body line an mboxrd writer escaped; it loses one `>`. */
function isEscapedFrom(line: Buffer): boolean {
  let i = 0;
  while (line[i] === 0x3e) i++;
  return i > 0 && line.subarray(i, i + FROM_.length).equals(FROM_);
}

/**
 * The messages of an mbox file (mboxo or mboxrd), one Buffer each, without
 * their `From ` separator lines. Hand-written because the npm mbox packages are
 * unmaintained and decode the file to strings, which garbles any message not in
 * UTF-8; this works on bytes and holds one message at a time, so a mailbox of
 * several gigabytes never sits in memory whole.
 */
export async function* readMbox(file: string): AsyncGenerator<Buffer> {
  let lines: Buffer[] = [];
  let started = false;
  let partial: Buffer[] = [];

  function take(): Buffer | undefined {
    const last = lines.at(-1);
    // An mbox writer puts a blank line between messages; it belongs to neither.
    if (started && last && isBlankLine(last)) lines.pop();
    const message = Buffer.concat(lines);
    lines = [];
    // Bytes before the first separator are no message unless there is something in them.
    if (!started && message.every(isWhitespace)) return undefined;
    return message.length > 0 ? message : undefined;
  }

  function line(bytes: Buffer): Buffer | undefined {
    if (looksLikeMbox(bytes)) {
      const message = take();
      started = true;
      return message;
    }
    lines.push(isEscapedFrom(bytes) ? bytes.subarray(1) : bytes);
    return undefined;
  }

  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
      let piece = chunk.subarray(start, nl + 1);
      if (partial.length > 0) {
        piece = Buffer.concat([...partial, piece]);
        partial = [];
      }
      start = nl + 1;
      const message = line(piece);
      if (message) yield message;
    }
    // Copied so that a short tail does not keep its whole 64 KiB chunk alive.
    if (start < chunk.length) partial.push(Buffer.from(chunk.subarray(start)));
  }
  if (partial.length > 0) {
    const message = line(Buffer.concat(partial));
    if (message) yield message;
  }
  const last = take();
  if (last) yield last;
}

// Enough for the blank lines an mbox may start with and its first separator.
const MBOX_HEAD_BYTES = 4096;

async function headOf(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(MBOX_HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function* fileSources(file: string, label: string, mboxLabel: string): AsyncGenerator<EmailSource> {
  try {
    const info = await stat(file);
    if (info.isDirectory()) {
      yield { label, error: `${label} is a folder, not an e-mail file.` };
      return;
    }
    // A pipe or a device would block the read or never end.
    if (!info.isFile()) {
      yield { label, error: `${label} is not a regular file.` };
      return;
    }
    if (!startsLikeMbox(await headOf(file))) {
      yield { label, raw: await readFile(file) };
      return;
    }
  } catch (error) {
    yield { label, error: readError(label, error) };
    return;
  }
  // A saved .eml with an envelope line reads as an mbox of one; it keeps its plain label.
  let n = 0;
  let held: Buffer | undefined;
  try {
    for await (const raw of readMbox(file)) {
      if (held) yield { label: `${mboxLabel} message ${n}`, raw: held };
      held = raw;
      n++;
    }
  } catch (error) {
    if (held) yield { label: `${mboxLabel} message ${n}`, raw: held };
    yield { label: n > 0 ? `${mboxLabel} after message ${n}` : label, error: readError(label, error) };
    return;
  }
  if (held) yield { label: n === 1 ? label : `${mboxLabel} message ${n}`, raw: held };
}

/**
 * Every message under `inputPath`: an .eml file, an mbox file (recognised by
 * its first bytes, whatever it is called), or a folder searched for .eml files
 * and Maildirs (see walkMailFolder).
 * A file that cannot be read becomes an `error` item and the rest go on.
 */
export async function* emailSources(inputPath: string): AsyncGenerator<EmailSource> {
  let info;
  try {
    info = await lstat(inputPath);
    if (info.isSymbolicLink()) info = await stat(inputPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new EmailError(`There is no file or folder at ${inputPath}.`);
    throw new EmailError(readError(inputPath, error));
  }
  if (!info.isDirectory()) {
    const name = path.basename(inputPath);
    yield* fileSources(inputPath, name, name);
    return;
  }
  const entries: MailFile[] = [];
  await walkMailFolder(inputPath, '', entries);
  entries.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  for (const entry of entries) {
    if ('error' in entry) yield { label: entry.rel, error: entry.error };
    else yield* fileSources(entry.abs, entry.rel, entry.rel);
  }
}
