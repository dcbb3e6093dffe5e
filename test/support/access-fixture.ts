/**
 * A vault with notes inside and outside every boundary kind. Notes outside
 * every boundary carry the word "zebra", so that a query can reach only them.
 */
export const id = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const note = (n: number, title: string, body: string, extra = '') =>
  `---\nid: ${id(n)}\ntitle: ${title}\ncreated: 2026-11-2${n % 10}T10:00:00+00:00\nupdated: 2026-11-2${n % 10}T10:00:00+00:00\n${extra}---\n${body}\n`;

export const BOUNDARY_VAULT: Record<string, string> = {
  'Work/Plan.md': note(1, 'Quarterly plan', 'Roadmap for the quarter. #work #flashcards'),
  'Work/Sub/Deep.md': note(2, 'Focus sessions', 'Long focus blocks help. #work/deep'),
  'Work/Confidential/Salary.md': note(3, 'Salary negotiation', 'Private numbers for the raise. #salarysecret'),
  'Home/Diary.md': note(4, 'Diary zebra entry', 'Talked with @therapist about the zebra. #diary #flashcards'),
  'Home/Office.md': note(5, 'Home office setup', 'Desk and lamp at home. #work'),
  'Root zebra.md': note(6, 'Root zebra', 'Loose zebra thought. #rootsecret'),
  'Hidden Folder/.gitkeep': '',
};

export const TEAMMATE_VAULT: Record<string, string> = {
  'Shared.md': note(7, 'Teammate zebra brief', 'Shared with the team, zebra. #teamzebra', 'shared: true\n'),
  'Private.md': note(8, 'Teammate private zebra', 'Not shared, zebra. #teamprivate'),
};

export interface BoundaryCase {
  name: string;
  folder?: string;
  tag?: string;
  inside: number[];
  outside: number[];
  outsideFolders: string[];
  outsideTags: string[];
}

const teammate = { ids: [7, 8], titles: ['Teammate zebra brief', 'Teammate private zebra'], tags: ['#teamzebra', '#teamprivate'] };

export const CASES: BoundaryCase[] = [
  {
    name: 'folder Work',
    folder: 'Work',
    inside: [1, 2, 3],
    outside: [4, 5, 6],
    outsideFolders: ['Home', 'Hidden Folder'],
    outsideTags: ['#diary', '@therapist', '#rootsecret'],
  },
  {
    name: 'tag #work',
    tag: '#work',
    inside: [1, 2, 5],
    outside: [3, 4, 6],
    outsideFolders: ['Work/Confidential', 'Hidden Folder'],
    outsideTags: ['#salarysecret', '#diary', '@therapist', '#rootsecret'],
  },
  {
    name: 'folder Work and tag #work',
    folder: 'Work',
    tag: 'work',
    inside: [1, 2],
    outside: [3, 4, 5, 6],
    outsideFolders: ['Home', 'Hidden Folder', 'Work/Confidential'],
    outsideTags: ['#salarysecret', '#diary', '@therapist', '#rootsecret'],
  },
].map((c) => ({ ...c, outside: [...c.outside, ...teammate.ids], outsideTags: [...c.outsideTags, ...teammate.tags] }));

export const TITLES: Record<number, string> = {
  1: 'Quarterly plan',
  2: 'Focus sessions',
  3: 'Salary negotiation',
  4: 'Diary zebra entry',
  5: 'Home office setup',
  6: 'Root zebra',
  7: teammate.titles[0] as string,
  8: teammate.titles[1] as string,
};
