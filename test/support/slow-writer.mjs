// Another program writing a note slowly, as scripts and shell redirections do.
// argv: file mode pauseMs lines...
//   mode "rewrite": truncate, write the first half of the lines, pause, write the rest (one descriptor).
//   mode "append-loop": open once for appending and write one line per pause (`{ loop; } >> note.md`).
// Prints "started" once its first bytes are in the file, and exits when done.
import { closeSync, openSync, writeSync } from 'node:fs';

const [file, mode, pauseText, ...lines] = process.argv.slice(2);
const pause = Number(pauseText);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

if (mode === 'rewrite') {
  const fd = openSync(file, 'w');
  const half = Math.ceil(lines.length / 2);
  writeSync(fd, lines.slice(0, half).map((line) => `${line}\n`).join(''));
  process.stdout.write('started\n');
  await sleep(pause);
  writeSync(fd, lines.slice(half).map((line) => `${line}\n`).join(''));
  closeSync(fd);
} else if (mode === 'append-loop') {
  const fd = openSync(file, 'a');
  for (const [i, line] of lines.entries()) {
    writeSync(fd, `${line}\n`);
    if (i === 0) process.stdout.write('started\n');
    await sleep(pause);
  }
  closeSync(fd);
} else {
  throw new Error(`unknown mode ${mode}`);
}
