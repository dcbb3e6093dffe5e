/**
 * Worker-thread entry: lists a vault's notes and folders (scan.ts) off the
 * main thread, which meanwhile loads the index cache; the two used to share
 * it. Reads folders and stats files; opens no note and writes nothing.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { scanVault } from '../scan.js';
import type { PackedScan, ScanRequest } from './scan-pool.js';

const port = parentPort;
if (!port) throw new Error('scan-worker must run in a worker thread');
const { root } = workerData as ScanRequest;
const logs: string[] = [];
const oversized: [string, number][] = [];
try {
  const { files, folders, leftovers } = await scanVault(root, (line) => logs.push(line), (vaultPath, size) => oversized.push([vaultPath, size]));
  // Packed so that the main thread takes it in at once: one string and one
  // array of numbers rather than an object per file.
  const numbers = new Float64Array(files.length * 5);
  files.forEach((file, i) => numbers.set([file.size, file.mtimeMs, file.ctimeMs, file.ino, file.birthtimeMs], i * 5));
  const packed: PackedScan = { paths: files.map((file) => file.path).join('\0'), count: files.length, numbers, folders, leftovers, logs, oversized };
  port.postMessage(packed, [numbers.buffer]);
} catch (error) {
  port.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
