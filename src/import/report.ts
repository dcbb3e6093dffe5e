/**
 * How an importer speaks to the person running it: a progress figure on
 * long runs, one plain sentence per item it could not take, and a summary
 * line at the end. The command line draws them; tests collect them.
 */
export interface ImportReport {
  progress(done: number, total: number): void;
  problem(sentence: string): void;
  finish(summary: string): void;
}
