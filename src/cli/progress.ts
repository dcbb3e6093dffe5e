/** A progress line on stderr: redrawn in place on a terminal, a line every few seconds elsewhere. */
export function progressReporter(stream: NodeJS.WriteStream, label: string): { update(done: number, total: number): void; finish(message: string): void } {
  const tty = stream.isTTY === true;
  let lastLine = 0;
  return {
    update(done, total) {
      const now = Date.now();
      if (!tty && now - lastLine < 2000) return;
      lastLine = now;
      const width = 30;
      const fraction = total > 0 ? Math.min(1, done / total) : 0;
      const filled = Math.round(fraction * width);
      const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
      const text = `${label} ${bar} ${done.toLocaleString('en')}/${total.toLocaleString('en')}`;
      stream.write(tty ? `\r${text}` : `${text}\n`);
    },
    finish(message) {
      stream.write(tty ? `\r${message}\x1b[K\n` : `${message}\n`);
    },
  };
}
