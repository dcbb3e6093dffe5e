/** grade_review: records how well a card was recalled and schedules its next review (SM-2). */
import { z } from 'zod';
import { isCard, normaliseDeckTags } from '../review/deck.js';
import { fromReviewFrontmatter, gradeCard, toReviewFrontmatter, type Grade } from '../review/sm2.js';
import { NotInReviewError } from '../vault/errors.js';
import { formatIso } from '../format/time.js';
import { noteId, requiredInt, timestamp } from './schemas.js';
import { defineTool } from './tool.js';

export const gradeReviewTool = defineTool({
  name: 'grade_review',
  title: 'Grade a review',
  description:
    'Record how well the person recalled a card from get_due_reviews, and schedule its next review (SM-2). ' +
    'Call it once per card, after the person answered and you revealed the body. Grades: ' +
    '1 = Again (forgot it: the card comes back in about 10 minutes and its interval starts over); ' +
    '2 = Hard (recalled with serious difficulty); 3 = Good (recalled after some thought); 4 = Easy (recalled at once). ' +
    'Let the person choose, or judge from their answer. Only the note\'s review schedule is written; its text and updated time stay as they are. ' +
    'Returns {id, grade, due_at, interval_days, ease_factor, repetitions}: the next due time and the new schedule. ' +
    'Errors: "Note not found" for an unknown id or one this connection may not see; "Note is not in review" for a note without a review deck tag; ' +
    '"grade must be between 1 and 4".',
  scope: 'notes:write',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: z.object({
    note_id: noteId('The card\'s id, from get_due_reviews.'),
    grade: requiredInt('grade', 1, 4, 'How well the person recalled it: 1 = Again (forgot), 2 = Hard, 3 = Good, 4 = Easy.'),
  }),
  output: z.object({
    id: z.string(),
    grade: z.number().int().min(1).max(4),
    due_at: timestamp.describe('When the card is next due.'),
    interval_days: z.number().int().min(0).describe('Days until the next review; 0 after Again (back in 10 minutes).'),
    ease_factor: z.number().describe('SM-2 ease, 1.3 or more; it starts at 2.5.'),
    repetitions: z.number().int().min(0).describe('Successful reviews in a row; 0 after Again.'),
  }),
  async handler(args, { view, settings, clock }) {
    await view.assertReady();
    // Reading first brings the model in step with the file (an edit in an editor
    // may have removed the deck tag) and applies the boundary: unseen ids are not found.
    const note = await view.read(args.note_id);
    // A teammate's shared note is never one of the person's cards.
    if (note.owner !== undefined || !isCard(note.record, normaliseDeckTags(settings.reviewTags))) throw new NotInReviewError();
    const grade = args.grade as Grade;
    const state = gradeCard(fromReviewFrontmatter(note.record.review), grade, clock.now());
    await view.setFrontmatter(note.record.id, { review: toReviewFrontmatter(state) }, 'grade_review');
    return {
      id: note.record.id,
      grade,
      due_at: formatIso(state.due),
      interval_days: state.interval,
      ease_factor: state.ease,
      repetitions: state.repetitions,
    };
  },
});
