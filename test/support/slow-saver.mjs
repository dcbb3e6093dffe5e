// An editor that reloads a note and saves it in place, slowly, again and again
// (side-by-side-2 finding 1): each save reads the file, adds a line `P<i>`,
// truncates the file, writes the first half (often mid-line, inside the
// frontmatter), pauses, and writes the rest through the same descriptor.
// argv: file saves pauseMs gapMs
// Prints "started" once the first half of the first save is in the file, and exits when done.
import { closeSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';

const [file, savesText, pauseText, gapText] = process.argv.slice(2);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

for (let i = 1; i <= Number(savesText); i++) {
  const next = Buffer.from(`${readFileSync(file, 'utf8')}P${i}\n`);
  const cut = next.length >> 1;
  const fd = openSync(file, 'r+');
  ftruncateSync(fd, 0);
  writeSync(fd, next, 0, cut, 0);
  if (i === 1) process.stdout.write('started\n');
  await sleep(Number(pauseText));
  writeSync(fd, next, cut, next.length - cut, cut);
  closeSync(fd);
  await sleep(Number(gapText));
}
