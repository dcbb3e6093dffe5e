import { createHash } from 'node:crypto';
import { emailSources, parseEmail, EmailError, type EmailMessage } from './email.js';
import type { ImportRun } from './import-run.js';
import type { ImportReport } from './report.js';

export interface EmailImport {
  /** An `.eml` file, a folder of them, or an mbox file. */
  path: string;
  folder: string;
}

/**
 * A message's identity: its Message-ID, which every mail program keeps
 * across copies and exports; a message without one, the hash of its bytes.
 */
export function messageKey(message: EmailMessage, raw: Buffer): string {
  return message.messageId ?? `sha256:${createHash('sha256').update(raw).digest('hex')}`;
}

function fieldsOf(message: EmailMessage): Record<string, unknown> {
  const fields: Record<string, unknown> = { source: 'email' };
  if (message.from !== undefined) fields.from = message.from;
  if (message.to.length > 0) fields.to = message.to;
  if (message.cc.length > 0) fields.cc = message.cc;
  if (message.messageId !== undefined) fields.message_id = message.messageId;
  return fields;
}

/** The body, with the names of the files the message carried, which stay in the `.eml` attachment. */
function bodyOf(message: EmailMessage): string {
  const parts: string[] = [];
  if (message.body !== '') parts.push(message.body);
  if (message.attachmentNames.length > 0) parts.push(`Attached to the message (kept in its .eml file): ${message.attachmentNames.join(', ')}.`);
  return parts.length > 0 ? `${parts.join('\n\n')}\n` : '';
}

/**
 * `dexi-vault import email PATH`: a note per message, the message itself
 * kept beside it as its `.eml` attachment.
 */
export async function importEmail(run: ImportRun, options: EmailImport, report: ImportReport): Promise<void> {
  let messages = 0;
  for await (const source of emailSources(options.path)) {
    if ('error' in source) {
      report.problem(`${source.label}: ${source.error}`);
      run.countFailure();
      continue;
    }
    messages++;
    let message: EmailMessage;
    try {
      message = await parseEmail(source.raw);
    } catch (error) {
      if (!(error instanceof EmailError)) throw error;
      report.problem(`${source.label} was not imported: ${error.message}`);
      run.countFailure();
      continue;
    }
    const outcome = await run.add({
      kind: 'email',
      key: messageKey(message, source.raw),
      title: message.subject.trim() === '' ? '(no subject)' : message.subject.trim(),
      body: bodyOf(message),
      folder: options.folder,
      fields: fieldsOf(message),
      ...(message.date ? { created: message.date } : {}),
      ...(message.wholeBodyBytes !== undefined ? { wholeBodyBytes: message.wholeBodyBytes } : {}),
      attachment: { extension: 'eml', bytes: source.raw },
    });
    if (outcome.problem !== undefined) report.problem(`${source.label} was not imported: ${outcome.problem}`);
    report.progress(messages, 0);
  }
  report.finish(`Read ${messages.toLocaleString('en')} ${messages === 1 ? 'message' : 'messages'} from ${options.path} into ${options.folder}/: ${run.describeCounts()}.`);
}
