import { z } from 'zod';
import { dueCards, isCard, normaliseDeckTags, scheduleOf } from '../review/deck.js';
import { fromReviewFrontmatter, gradeCard, toReviewFrontmatter, type Grade } from '../review/sm2.js';
import { DexiError, NoteNotFoundError, NotInReviewError } from '../vault/errors.js';
import { formatIso } from '../format/time.js';
import { answerBytes, formatMiB, MAX_RESPONSE_BYTES } from './budget.js';
import { intParam, noteId, requiredInt } from './schemas.js';
import { defineTool } from './tool.js';

const timestamp = z.string().describe('ISO 8601 time, e.g. 2026-07-14T09:12:00+00:00');

const dueItem = z.object({
  id: z.string().describe('The card\'s note id, for grade_review.'),
  title: z.string().describe('The note title: usually the question or topic to quiz on.'),
  text: z.string().describe('The full Markdown body: the answer. Do not show it before the person has tried to recall it.'),
  due_at: timestamp.describe('When the card became due; for a new card, when the note was created.'),
  interval_days: z.number().int().min(0).describe('The current interval in days; 0 for a new card or one just failed.'),
  repetitions: z.number().int().min(0).describe('Successful reviews in a row; 0 for a new card.'),
  is_new: z.boolean().describe('True when the card has never been graded.'),
});

export const getDueReviewsTool = defineTool({
  name: 'get_due_reviews',
  title: 'Cards due for review',
  description:
    'List the person\'s flashcards that are due for spaced-repetition review now. A card is one of their notes carrying a review deck tag ' +
    '(the decks are named in the server instructions, e.g. #flashcards; nested tags like #flashcards/spanish count). ' +
    'Use it when the person wants to study, review or be quizzed. Quiz the person on the title/topic before revealing the body, then call grade_review ' +
    'with how well they recalled it; go through the cards one at a time. ' +
    'Order: cards already reviewed, most overdue first, then new cards (never graded, is_new true), oldest first. ' +
    'Returns {items: [{id, title, text, due_at, interval_days, repetitions, is_new}], due_count}: text is the full body (the answer); ' +
    'due_count counts every due card, also those beyond limit. An empty list means nothing is due. ' +
    'Cards are long answers: when the next card would make the answer too large to send, the list stops there and omitted_for_size says how many more were asked for; grade these, then ask again. ' +
    'Errors: "limit must be between 1 and 50".',
  scope: 'notes:read',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  input: z.object({
    limit: intParam('limit', 1, 50, 10, 'How many due cards to return, 1–50 (default 10); due_count still counts them all.'),
  }),
  output: z.object({
    items: z.array(dueItem),
    due_count: z.number().int().min(0).describe('How many cards are due in all, whatever the limit.'),
    omitted_for_size: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Present when the list stopped early because the next card would have made the answer too large to send: how many of the cards asked for were left out.'),
  }),
  async handler(args, { view, settings, clock, maxResponseBytes = MAX_RESPONSE_BYTES }) {
    await view.assertReady();
    const now = clock.now();
    const decks = normaliseDeckTags(settings.reviewTags);
    const due = dueCards(view.ownNotes(), decks, now);
    let dueCount = due.length;
    const items: z.infer<typeof dueItem>[] = [];
    // Cards carry their whole body, and notes may be 4 MiB: the answer is
    // built within the size one answer may hold, as the server is configured
    // (it refuses larger), less a margin for the envelope.
    const budget = maxResponseBytes - 64 * 1024;
    let used = answerBytes({ items: [], due_count: due.length, omitted_for_size: args.limit });
    let full = false;
    let omitted = 0;
    for (const card of due) {
      if (items.length + omitted >= args.limit) break;
      let note;
      try {
        note = await view.read(card.record.id);
      } catch (error) {
        // Deleted or moved out of the boundary since it was listed.
        if (error instanceof NoteNotFoundError) {
          dueCount--;
          continue;
        }
        throw error;
      }
      // Reading brings the model in step with the file: decide on what was read.
      const fresh = scheduleOf(note.record);
      if (note.owner !== undefined || !isCard(note.record, decks) || fresh.dueMs > now.getTime()) {
        dueCount--;
        continue;
      }
      if (full) {
        omitted++;
        continue;
      }
      const item = {
        id: note.record.id,
        title: note.record.title,
        text: note.body,
        due_at: formatIso(new Date(fresh.dueMs)),
        interval_days: fresh.intervalDays,
        repetitions: fresh.repetitions,
        is_new: fresh.isNew,
      };
      // Two commas: one in each copy of the answer.
      const cost = answerBytes(item) + 2;
      if (used + cost > budget) {
        if (items.length === 0) {
          throw new DexiError(
            `The most overdue card, "${note.record.title}", is too large to send (${formatMiB(cost)} as JSON, over the ${formatMiB(budget)} one answer may hold); shorten it in an editor, or remove its deck tag.`,
          );
        }
        full = true;
        omitted++;
        continue;
      }
      used += cost;
      items.push(item);
    }
    return omitted > 0 ? { items, due_count: dueCount, omitted_for_size: omitted } : { items, due_count: dueCount };
  },
});

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
