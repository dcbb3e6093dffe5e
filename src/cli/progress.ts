import type { ImportReport } from '../import/report.js';

/** What a long command shows while it works. */
export interface ProgressReporter {
  /** `total` 0: not known ahead (messages in an mbox), so a count is shown instead of a bar. `detail` follows the count (a rate, the time left). */
  update(done: number, total: number, detail?: string): void;
  /** A line of its own, such as why an item was skipped, without breaking the progress line. */
  say(line: string): void;
  finish(message: string): void;
}

/** A progress line on stderr: redrawn in place on a terminal, a line every few seconds elsewhere. */
export function progressReporter(stream: NodeJS.WriteStream, label: string): ProgressReporter {
  const tty = stream.isTTY === true;
  let lastLine = 0;
  let drawn = '';
  return {
    update(done, total, detail) {
      const now = Date.now();
      if (!tty && now - lastLine < 2000) return;
      lastLine = now;
      let text: string;
      if (total > 0) {
        const width = 30;
        const fraction = Math.min(1, done / total);
        const filled = Math.round(fraction * width);
        const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
        text = `${label} ${bar} ${done.toLocaleString('en')}/${total.toLocaleString('en')}`;
      } else text = `${label}: ${done.toLocaleString('en')}`;
      if (detail !== undefined && detail !== '') text += ` (${detail})`;
      drawn = tty ? text : '';
      stream.write(tty ? `\r${text}\x1b[K` : `${text}\n`);
    },
    say(line) {
      stream.write(tty ? `\r${line}\x1b[K\n${drawn}` : `${line}\n`);
    },
    finish(message) {
      stream.write(tty ? `\r${message}\x1b[K\n` : `${message}\n`);
      drawn = '';
    },
  };
}

/** The importers' words, on stderr: a progress line, a sentence per item not taken, the summary. */
export function importReport(label: string): ImportReport {
  const progress = progressReporter(process.stderr, label);
  return {
    progress: (done, total) => progress.update(done, total),
    problem: (sentence) => progress.say(`dexi-vault: ${sentence}`),
    finish: (summary) => progress.finish(summary),
  };
}
