import moment from 'moment';
import { describe, expect, it } from 'vitest';
import { fillDailyTemplate } from '../../src/format/daily-template.js';

// The note's day, and the clock's time when it is made (local time: the server's zone).
const date = moment('2026-12-02', 'YYYY-MM-DD', true);
const now = new Date(2026, 10, 30, 9, 5, 7);
const fill = { date, format: 'YYYY-MM-DD', title: '2026-12-02', now };

/** What Obsidian's Daily notes write for each template line, on 2 December 2026 at 09:05:07. */
const CASES: [string, string][] = [
  ['# {{date}}', '# 2026-12-02'],
  ['{{ DATE }} and {{Date}}', '2026-12-02 and 2026-12-02'],
  ['Made at {{time}}', 'Made at 09:05'],
  ['{{ time }}', '09:05'],
  ['# {{title}}', '# 2026-12-02'],
  ['{{date:dddd, MMMM Do YYYY}}', 'Wednesday, December 2nd 2026'],
  ['{{date : YYYY}}', '2026'],
  ['{{date: YYYY }}', '2026'],
  ['{{ date:YYYY-[W]ww }}', '2026-W49'],
  ['{{time:HH:mm:ss}}', '09:05:07'],
  // The formatted forms give the note's day at the time now, whichever name they use.
  ['{{time:YYYY-MM-DD HH:mm}}', '2026-12-02 09:05'],
  ['{{date:YYYY-MM-DDTHH:mm}}', '2026-12-02T09:05'],
  ['{{date:YYYY}}-{{date:MM}} and {{time:mm}}', '2026-12 and 05'],
  // Offsets before the colon, units as moment reads them; without a format, the daily format.
  ['[[{{date-1d:YYYY-MM-DD}}]] | [[{{date+1d:YYYY-MM-DD}}]]', '[[2026-12-01]] | [[2026-12-03]]'],
  ['{{date-1w}}', '2026-11-25'],
  ['{{date+1M:MMMM}}', 'January'],
  ['{{date+1y:YYYY}}', '2027'],
  ['{{time+30m:HH:mm}}', '09:35'],
  // Text around the variables, and what is not a variable, stay as written.
  ['{{date:}}', '{{date:}}'],
  ['{{yesterday}} {{tomorrow}} {{datetime}} {date} {{ title:x }}', '{{yesterday}} {{tomorrow}} {{datetime}} {date} {{ title:x }}'],
  ['<% tp.date.now("YYYY") %>', '<% tp.date.now("YYYY") %>'],
  ['---\ndate: {{date}}\ntags: [daily]\n---\n# {{title}}\r\n\r\n- [ ] ', '---\ndate: 2026-12-02\ntags: [daily]\n---\n# 2026-12-02\r\n\r\n- [ ] '],
  ['', ''],
];

describe('fillDailyTemplate', () => {
  it.each(CASES)('%j → %j', (template, expected) => {
    expect(fillDailyTemplate(template, fill)).toBe(expected);
  });

  it('fills {{date}} with the daily format, folders and all, and {{title}} with the file name', () => {
    const filled = fillDailyTemplate('{{date}} / {{title}} / {{date-1d}}', { ...fill, format: 'YYYY/MM/YYYY-MM-DD', title: '2026-12-02' });
    expect(filled).toBe('2026/12/2026-12-02 / 2026-12-02 / 2026/12/2026-12-01');
  });

  it('takes a $ in a title or a format as text', () => {
    expect(fillDailyTemplate('{{title}} {{date:[$&]}}', { ...fill, title: "$& $1 $'" })).toBe("$& $1 $' $&");
  });

  it('does not change the day it is given', () => {
    fillDailyTemplate('{{date+1d}} {{time:HH}}', fill);
    expect(date.format('YYYY-MM-DD HH:mm')).toBe('2026-12-02 00:00');
  });
});
