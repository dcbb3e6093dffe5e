/**
 * A count with its noun, singular or plural as the count wants ("1 note",
 * "2 notes", "10,000 notes"): every message a person reads says counts so.
 */

/** `count` in English digit grouping, then `noun`, or `pluralNoun` (default: noun + "s") unless the count is 1. */
export function counted(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? noun : pluralNoun}`;
}
