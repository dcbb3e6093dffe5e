import { describe, expect, it } from 'vitest';
import { copiedSentence, NEIGHBOUR_TOPICS, neighbourTopics, topicOf } from '../../bench/labeled-runs.js';
import { LABELED_NOTES } from '../../bench/semantic-set.js';

describe('the labeled runs', () => {
  it('reads the topic from a key', () => {
    expect(topicOf('sourdough-11')).toBe('sourdough');
    expect(topicOf('ml-2')).toBe('ml');
  });

  it('names neighbouring topics both ways, and only topics of the set', () => {
    const topics = new Set(LABELED_NOTES.map((note) => topicOf(note.key)));
    for (const [a, b] of NEIGHBOUR_TOPICS) {
      expect(topics.has(a) && topics.has(b)).toBe(true);
      expect(neighbourTopics(a, b) && neighbourTopics(b, a)).toBe(true);
    }
    expect(neighbourTopics('garden', 'garden')).toBe(false);
    expect(neighbourTopics('coffee', 'sourdough')).toBe(false);
  });

  it('copies the middle sentence of six words or more, word for word', () => {
    const body = 'Short one. The first long sentence has seven words. - The second long sentence has seven words too!\nThe third long sentence also has eight words.';
    expect(copiedSentence(body)).toBe('The second long sentence has seven words too!');
    expect(copiedSentence('Too short.')).toBe('Too short.');
    for (const note of LABELED_NOTES) expect(note.body).toContain(copiedSentence(note.body));
  });
});
