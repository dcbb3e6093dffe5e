/**
 * get_due_reviews: the person's flashcards due now, each with its whole body,
 * within the size one answer may hold.
 */
import { z } from 'zod';
import { dueCards, isCard, normaliseDeckTags, scheduleOf } from '../review/deck.js';
import { DexiError, NoteNotFoundError } from '../vault/errors.js';
import { formatIso } from '../format/time.js';
import { answerBytes, formatMiB, MAX_RESPONSE_BYTES } from './answer-size.js';
import { intParam, timestamp } from './schemas.js';
import { defineTool } from './tool.js';

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
