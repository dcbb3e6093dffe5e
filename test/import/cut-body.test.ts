import { describe, expect, it } from 'vitest';
import { cutBody } from '../../src/import/cut-body.js';

describe('cutBody: a body past the limit is cut with a line saying so', () => {
  const whole = 'it is kept whole in the attached .eml file';

  it('leaves a body within the limit as it is', () => {
    const body = `${'a'.repeat(100)}\n`;
    expect(cutBody(body, whole, 101)).toBe(body);
  });

  it('cuts at a paragraph end near the limit and says how much of how much, and where the whole is', () => {
    const paragraph = `${'word '.repeat(199)}word`;
    const body = `${Array.from({ length: 400 }, () => paragraph).join('\n\n')}\n`;
    const cut = cutBody(body, whole, 256 * 1024);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(256 * 1024 + 200);
    expect(Buffer.byteLength(cut)).toBeGreaterThan(0.75 * 256 * 1024);
    const [kept, line] = cut.split('\n\n(Cut here: ');
    expect(kept?.endsWith(paragraph)).toBe(true);
    expect(line).toMatch(/^this note holds the first 25\d KiB of 392 KiB of text; it is kept whole in the attached \.eml file\.\)\n$/);
  });

  it('never cuts inside a character, and closes a code block it cuts into', () => {
    const body = `Intro\n\n\`\`\`\n${'é'.repeat(3000)}\n\`\`\`\n`;
    const cut = cutBody(body, 'the rest was left out', 1001);
    expect(cut).not.toContain('\uFFFD');
    expect(cut).toMatch(/^Intro\n\n```\né{495}\n```\n\n\(Cut here: this note holds the first 1 KiB of 6 KiB of text; the rest was left out\.\)\n$/);
  });
});
