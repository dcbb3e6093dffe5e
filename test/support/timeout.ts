/**
 * Reject with a clear message if `work` takes longer than `ms`, so that a
 * hang fails with what was awaited instead of stalling the run. The timer is
 * cleared either way: it never keeps the process alive.
 */
export async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${duration(ms)} waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** `6,000 ms`, `120.0 s`: limits run from seconds to many minutes. */
function duration(ms: number): string {
  return ms < 10_000 ? `${Math.round(ms).toLocaleString('en')} ms` : `${(ms / 1000).toFixed(1)} s`;
}
