/*
 * Note dates from git history (spec/vault.md, "Identity, dates and what the
 * server writes"): `created` falls back to the time of the commit that first
 * added the file, following renames; `updated` to the time of the file's last
 * commit while the file is unchanged since then. Both come from one pass over
 * the history, replayed oldest first, and are cached by HEAD commit.
 *
 * This module is that replay, pure: git-log-parser.ts feeds it the changes
 * it reads from git's output, and git-history.ts runs git and keeps the cache.
 *
 * Rules of the replay (each commit's changes, parents before children):
 *
 * - A file's "lineage" starts where it is added and follows it through every
 *   rename git pairs (`-M`, similarity of 50% or more, so a rename with a
 *   small edit in the same commit still counts). `firstAddedMs` is the
 *   lineage's earliest commit time.
 * - A copy is a new file: copies are not detected (no `-C`), and a copy
 *   reported anyway starts its own lineage at the copying commit.
 * - A file deleted and later added again at the same path keeps its first
 *   add: "first added", and the way a vault loses and regains a note is a
 *   restore or a revert (this is also what `git log --follow` reports). A
 *   path a file was renamed away from is free instead: a new file there is a
 *   new note (the next "Untitled.md"). A delete or rename on one branch while
 *   another branch still changes the old path brings the lineage back there.
 * - The same path added on several branches: the earliest of the adds wins.
 * - Merges contribute only what the merge itself changed, i.e. what differs
 *   from every parent (git's combined diff, `-c`): conflict resolutions and
 *   files the merge added or removed by hand. Everything a side branch did is
 *   seen in the side branch's own commits, with their own times, so a note
 *   written on another device keeps the time it was committed there rather
 *   than the time of the merge.
 * - `lastCommitMs` is the latest commit, in the replay's order, that gave the
 *   path its HEAD content (a pure rename counts: it changed where the file
 *   is). Committer times are used throughout: they are when a change entered
 *   the history, and tests can set them.
 */

export interface GitFileDates {
  /** Committer time of the commit that first added the file, following renames. */
  firstAddedMs: number;
  /** Committer time of the last commit that gave the file its content at HEAD. */
  lastCommitMs: number;
  /** The file's blob id at HEAD: compare with `gitBlobId(content, history.objectFormat)`. */
  blob: string;
}

interface Lineage {
  firstAddedMs: number;
}

/** What the replay learns about one path present at HEAD (repository-relative). */
export interface HeadFile {
  blob: string;
  /** The path's blob at the current point of the replay; undefined while the path does not exist. */
  current: string | undefined;
  /** When the replay last saw the path take its HEAD blob. */
  matchedMs: number | undefined;
  /** When the replay last saw any change to the path. */
  touchedMs: number | undefined;
}

/** Replays the history's changes, oldest first, over repository-relative NFC paths. */
export class HistoryReplay {
  commits = 0;
  private timeMs = 0;
  /** Paths that exist at the current point of the replay. */
  private readonly live = new Map<string, Lineage>();
  /** Paths deleted: the same path added again (a restore, a revert) is the same file coming back. */
  private readonly deleted = new Map<string, Lineage>();
  /**
   * Paths renamed away: the lineage went with the rename, so a new file at
   * the old path is a new file; only a branch that still changes the old
   * path (made before the rename) brings the lineage back there.
   */
  private readonly movedAway = new Map<string, Lineage>();

  constructor(private readonly head: Map<string, HeadFile>) {}

  startCommit(timeMs: number): void {
    this.commits += 1;
    this.timeMs = timeMs;
  }

  added(file: string, blob: string): void {
    const lineage = this.live.get(file) ?? this.deleted.get(file);
    if (lineage) lineage.firstAddedMs = Math.min(lineage.firstAddedMs, this.timeMs);
    this.exists(file, lineage ?? { firstAddedMs: this.timeMs });
    this.sawBlob(file, blob);
  }

  changed(file: string, blob: string): void {
    this.exists(file, this.live.get(file) ?? this.deleted.get(file) ?? this.movedAway.get(file) ?? { firstAddedMs: this.timeMs });
    this.sawBlob(file, blob);
  }

  removed(file: string): void {
    const lineage = this.live.get(file);
    if (lineage) {
      this.live.delete(file);
      this.deleted.set(file, lineage);
    }
    this.sawBlob(file, undefined);
  }

  renamed(from: string, to: string, blob: string): void {
    const lineage = this.live.get(from) ?? this.deleted.get(from) ?? this.movedAway.get(from) ?? { firstAddedMs: this.timeMs };
    if (this.live.delete(from)) {
      this.deleted.delete(from);
      this.movedAway.set(from, lineage);
    }
    this.sawBlob(from, undefined);
    // Renamed onto a path that another branch already holds: one file now, the earlier of the two.
    const existing = this.live.get(to);
    if (existing && existing !== lineage) lineage.firstAddedMs = Math.min(lineage.firstAddedMs, existing.firstAddedMs);
    this.exists(to, lineage);
    this.sawBlob(to, blob);
  }

  private exists(file: string, lineage: Lineage): void {
    this.live.set(file, lineage);
    this.deleted.delete(file);
    this.movedAway.delete(file);
  }

  private sawBlob(file: string, blob: string | undefined): void {
    const headFile = this.head.get(file);
    if (!headFile) return;
    headFile.touchedMs = this.timeMs;
    if (blob === headFile.current) return;
    headFile.current = blob;
    if (blob === headFile.blob) headFile.matchedMs = this.timeMs;
  }

  /** The dates of the HEAD files under `prefix`, keyed by their path below it. */
  result(prefix: string): Map<string, GitFileDates> {
    const files = new Map<string, GitFileDates>();
    for (const [file, headFile] of this.head) {
      const lineage = this.live.get(file) ?? this.deleted.get(file) ?? this.movedAway.get(file);
      // A HEAD file the replay never saw (a history cut short): no date is better than a guess.
      if (!lineage) continue;
      const lastCommitMs = headFile.matchedMs ?? headFile.touchedMs ?? lineage.firstAddedMs;
      // Committer clocks can be skewed; a note is never created after its last change.
      files.set(file.slice(prefix.length), { firstAddedMs: Math.min(lineage.firstAddedMs, lastCommitMs), lastCommitMs, blob: headFile.blob });
    }
    return files;
  }
}
