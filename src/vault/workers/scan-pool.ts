import { Worker } from 'node:worker_threads';
import { scanVault, type FileStat, type ScanResult } from '../scan.js';

export interface ScanRequest {
  root: string;
}

/** A scan as the worker hands it over: `paths` joined by NUL (never in a name), five numbers a file. */
export interface PackedScan {
  paths: string;
  count: number;
  numbers: Float64Array;
  folders: string[];
  leftovers: string[];
  logs: string[];
  oversized: [string, number][];
}

/** A listing of a vault's files begun before the vault is opened (src/cli/early-scan.ts), for its first read to take. */
export interface EarlyScan {
  /** The vault's real path: the first read takes the listing only for this root. */
  root: string;
  packed: Promise<PackedScan | undefined>;
}

/**
 * `scanVault` on a worker thread: at 100,000 notes the scan's stats were
 * 0.4-0.5 s of the main thread's warm start, which it spends loading the
 * index cache meanwhile (issue 17). Whatever goes wrong with the worker, the
 * scan runs here instead, where its errors reach the caller as usual.
 */
export async function scanOffThread(
  root: string,
  log: (line: string) => void,
  onOversize: (vaultPath: string, size: number) => void,
  launch: (request: ScanRequest) => Worker = launchScanWorker,
): Promise<ScanResult> {
  return unpackScan(await beginScan(root, launch), root, log, onOversize);
}

/**
 * The listing of `root` on the scanning worker, as it hands it over;
 * undefined whatever goes wrong with the worker. `holdProcess` false: the
 * worker does not keep the process alive, for a listing begun before anyone
 * waits for it (a command that ends first is not held up by it).
 */
export function beginScan(root: string, launch: (request: ScanRequest) => Worker = launchScanWorker, holdProcess = true): Promise<PackedScan | undefined> {
  return new Promise<PackedScan | undefined>((resolve) => {
    let worker: Worker;
    try {
      worker = launch({ root });
    } catch {
      resolve(undefined);
      return;
    }
    if (!holdProcess) worker.unref();
    worker.once('message', (message: PackedScan | { error: string }) => resolve('error' in message ? undefined : message));
    worker.once('error', () => resolve(undefined));
    worker.once('exit', () => resolve(undefined));
  });
}

/** The files of a listing the worker handed over, its lines logged; with none (the worker failed), the listing made here. */
export async function unpackScan(
  packed: PackedScan | undefined,
  root: string,
  log: (line: string) => void,
  onOversize: (vaultPath: string, size: number) => void,
): Promise<ScanResult> {
  if (!packed) return scanVault(root, log, onOversize);
  for (const line of packed.logs) log(line);
  for (const [vaultPath, size] of packed.oversized) onOversize(vaultPath, size);
  const paths = packed.count === 0 ? [] : packed.paths.split('\0');
  const { numbers } = packed;
  const files: FileStat[] = paths.map((vaultPath, i) => ({
    path: vaultPath,
    size: numbers[i * 5] as number,
    mtimeMs: numbers[i * 5 + 1] as number,
    ctimeMs: numbers[i * 5 + 2] as number,
    ino: numbers[i * 5 + 3] as number,
    birthtimeMs: numbers[i * 5 + 4] as number,
  }));
  return { files, folders: packed.folders, leftovers: packed.leftovers };
}

/** `scan-worker.js` beside this module, in dist/ or the bundle (the tests run its TypeScript source: see test/support/typescript-hooks.mjs). */
function launchScanWorker(request: ScanRequest): Worker {
  return new Worker(new URL('./scan-worker.js', import.meta.url), { workerData: request });
}
