/**
 * A labeled evaluation set for semantic search: realistic personal notes over
 * about 30 topics, and queries phrased as a person would ask an assistant,
 * each with the keys of every note a person asking it would want to see.
 * Notes relevant to no query are negatives for every query; notes of the same
 * topic that a query does not ask about are the hard negatives.
 *
 * Most queries deliberately share no content word with their relevant notes
 * (see `sharedContentWords`), so full-text search cannot simply find them;
 * a few keyword-style queries do share words, as real queries often do.
 *
 * Pure data and small helpers; no I/O. Keys are stable: `topic-N`.
 */

export interface LabeledNote {
  key: string;
  title: string;
  body: string;
}

export interface LabeledQuery {
  query: string;
  /** keys of all notes in `LABELED_NOTES` a person asking `query` would want to see */
  relevant: string[];
}

// ---------------------------------------------------------------------------
// Word comparison: lower-case, accents folded, apostrophes dropped, split on
// anything that is not a letter or digit, stop words removed, crude stemming.

/**
 * Common English function words, contractions without their apostrophe, and
 * the words people use to frame a request to an assistant ("notes about…",
 * "remind me…", "find…"), which say nothing about the topic.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  // articles, pronouns, determiners
  'a', 'an', 'the', 'i', 'me', 'my', 'mine', 'myself', 'we', 'us', 'our', 'ours', 'ourselves',
  'you', 'your', 'yours', 'yourself', 'yourselves', 'he', 'him', 'his', 'himself', 'she', 'her',
  'hers', 'herself', 'it', 'its', 'itself', 'they', 'them', 'their', 'theirs', 'themselves',
  'this', 'that', 'these', 'those', 'what', 'which', 'who', 'whom', 'whose', 'when', 'where',
  'why', 'how', 'all', 'any', 'both', 'each', 'few', 'more', 'most', 'other', 'others', 'some',
  'such', 'no', 'nor', 'not', 'only', 'own', 'same', 'so', 'than', 'too', 'very', 'every',
  'everything', 'anything', 'something', 'nothing', 'else', 'ever', 'also', 'just', 'now',
  'then', 'there', 'here', 'again', 'once', 'further', 'much', 'many', 'whether',
  // auxiliaries and modals
  'am', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'have', 'has', 'had', 'having',
  'do', 'does', 'did', 'doing', 'done', 'can', 'could', 'will', 'would', 'shall', 'should',
  'may', 'might', 'must',
  // conjunctions and prepositions
  'and', 'but', 'if', 'or', 'because', 'as', 'until', 'while', 'of', 'at', 'by', 'for', 'with',
  'about', 'against', 'between', 'into', 'through', 'during', 'before', 'after', 'above',
  'below', 'to', 'from', 'up', 'down', 'in', 'out', 'on', 'off', 'over', 'under', 'onto',
  'upon', 'within', 'without', 'via', 'per',
  // contractions, apostrophe dropped
  'im', 'ive', 'id', 'ill', 'youre', 'weve', 'were', 'theyre', 'dont', 'doesnt', 'didnt',
  'cant', 'couldnt', 'wont', 'wouldnt', 'shouldnt', 'isnt', 'arent', 'wasnt', 'werent',
  'hasnt', 'havent', 'hadnt', 'whats', 'hows', 'thats', 'theres', 'lets', 's', 't',
  // framing words of a request
  'note', 'notes', 'noted', 'anything', 'stuff', 'thing', 'things', 'find', 'show', 'look',
  'looking', 'remind', 'remember', 'recall', 'wrote', 'write', 'written', 'jotted', 'tell',
  'told', 'know', 'get', 'gets', 'getting', 'got', 'want', 'wanted', 'need', 'needed', 'way',
  'ways',
]);

const SUFFIXES = ['ing', 'es', 'ed', 'er', 'ly', 's'] as const;

/**
 * A crude stemmer: `ies` → `y`, else strips one of `ing es ed er ly s` (when
 * at least three letters remain), then a final `e` and a doubled final
 * consonant, so that bake/baking/baked/baker, run/running and note/notes
 * meet.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) {
    w = `${w.slice(0, -3)}y`;
  } else {
    for (const suffix of SUFFIXES) {
      if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
        w = w.slice(0, -suffix.length);
        break;
      }
    }
  }
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  const last = w[w.length - 1];
  if (w.length > 3 && last !== undefined && last === w[w.length - 2] && !'aeiou'.includes(last)) w = w.slice(0, -1);
  return w;
}

/** Lower-cased words of `text`, accents folded and apostrophes dropped. */
export function words(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '');
  return folded.split(/[^a-z0-9]+/).filter((word) => word.length > 0);
}

/** The words of `text` that are not stop words. */
export function contentWords(text: string): string[] {
  return words(text).filter((word) => !STOP_WORDS.has(word));
}

/**
 * The content words of `query` (lower-cased, each once, in query order) whose
 * stem is also the stem of a content word of `text`.
 */
export function sharedContentWords(query: string, text: string): string[] {
  const textStems = new Set(contentWords(text).map(stem));
  const shared: string[] = [];
  for (const word of contentWords(query)) {
    if (textStems.has(stem(word)) && !shared.includes(word)) shared.push(word);
  }
  return shared;
}

// ---------------------------------------------------------------------------
// The notes.

export const LABELED_NOTES: LabeledNote[] = [
  // --- sourdough -----------------------------------------------------------
  {
    key: 'sourdough-1',
    title: 'Starter feeding log — week 2',
    body: `- Mon 8:00 fed 1:1:1 (20g starter, 20g rye, 20g water). Doubled by 14:00.
- Tue 8:00 same ratio, peaked around 13:30, nice dome and lots of bubbles.
- Wed skipped the morning feed, fed at 19:00 instead, much slower, only up 50% by bedtime.
- Thu back on schedule. Float test passed.

Conclusion: rye in the mix really speeds it up. Keep the jar on top of the fridge where it's warmer.`,
  },
  {
    key: 'sourdough-2',
    title: 'Flat loaf post-mortem',
    body: `Saturday's loaf spread out like a pancake on the peel and barely gained any height in the oven. Suspects: 80% hydration is too much for this supermarket flour, and I was too gentle in the final shaping.

Next time: drop to 72% water, do two extra sets of stretch and folds, and give the boule a proper tight skin before it goes into the banneton.`,
  },
  {
    key: 'sourdough-3',
    title: 'Cold kitchen = slow bulk',
    body: `The kitchen was 17°C today and bulk fermentation took almost ten hours. The dough barely grew and felt slack and sticky.

Ideas for winter:
- put the bowl in the oven with only the light on (gets to ~26°C)
- use warm water (30°C) when mixing
- add a bit more levain
- mark the container with a rubber band so I can see when it's up by half`,
  },
  {
    key: 'sourdough-4',
    title: 'Scoring practice',
    body: `Tried the lame at a shallow 30° angle, one confident stroke about 1cm deep. Got a proper ear for the first time!

- score straight out of the fridge while the dough is firm
- a wet blade drags less
- the wheat-stalk pattern looks great but is fiddly; save it for when we have guests`,
  },
  {
    key: 'sourdough-5',
    title: 'Country loaf — my base recipe',
    body: `- 400g strong white flour
- 100g whole wheat
- 360g water (72%)
- 100g active levain
- 10g salt

Autolyse 1h, add levain + salt, 4 sets of folds 30 min apart, bulk until ~50% up, shape, overnight in the fridge, bake cold straight from the fridge.`,
  },
  {
    key: 'sourdough-6',
    title: 'Gummy crumb again',
    body: `Cut into the loaf after it cooled 2 hours and the inside was dense and gummy near the base, with a few big tunnels up top — classic underproofing. The poke test said ready but I think the bulk was too short for how cool the flat is.

Try: longer bulk until the dough is jiggly and domed with bubbles on the sides, and only trust the poke test once the dough has been at room temperature.`,
  },
  {
    key: 'sourdough-7',
    title: 'Dutch oven method',
    body: `Preheat the cast iron pot at 250°C for 45 min. Load the dough on parchment, lid on for 20 minutes, then lid off at 230°C for another 20–25 minutes until deep mahogany. An ice cube under the parchment gives a blistered crust.

Internal temperature should read 96°C. Let it cool for at least an hour before slicing, however good it smells!`,
  },
  {
    key: 'sourdough-8',
    title: 'Discard crackers',
    body: `Great way to not waste discard: mix 200g discard, 60g olive oil, 100g flour, salt and chopped rosemary. Roll thin between two sheets of baking paper, score into squares, sprinkle flaky salt, 175°C for 25 min until golden. Crunchy and addictive. Keeps a week in a tin. Next batch: try everything-bagel seasoning.`,
  },
  {
    key: 'sourdough-9',
    title: 'Starter smells like nail polish',
    body: `Opened the jar after a weekend away: grey liquid on top (hooch) and a sharp acetone smell. Apparently it just means it's starving.

Poured off the liquid, fed twice a day at 1:5:5 for three days and the yogurty smell came back. If I'm away again: a stiffer feed and straight into the fridge.`,
  },
  {
    key: 'sourdough-10',
    title: 'Shaping class at the community bakery',
    body: `Teacher (Maria) showed the pre-shape → bench rest → final shape sequence.

Key points:
- use the bench scraper to drag the round towards you and build surface tension
- flour only the top, never the bench under the dough
- a tight skin is what gives a tall loaf with an open crumb
- stitching works well for batards

Practise on a cheap yeasted dough first.`,
  },
  {
    key: 'sourdough-11',
    title: 'Discard pancakes',
    body: `Sunday breakfast: 250g unfed starter straight from the fridge, 1 egg, a splash of milk, 1 tbsp sugar, and 1/2 tsp bicarbonate of soda stirred in just before cooking. Fluffy and slightly tangy. The kids asked for seconds. A good use for the jar's overflow that builds up during the week.`,
  },

  // --- vegetable garden ----------------------------------------------------
  {
    key: 'garden-1',
    title: 'Tomato seedlings — March',
    body: `Sowed 'Sungold', 'Black Krim' and 'San Marzano' in modules on the windowsill, 2 seeds per cell. Heat mat at 22°C. First shoots after 6 days.

Potting on into 9cm pots once the first true leaves show. They're getting leggy — they need more light, maybe the LED shop lamp hung 10cm above them.`,
  },
  {
    key: 'garden-2',
    title: 'Raised bed plan 2024',
    body: `- Bed A: tomatoes + basil along the back, marigolds at the corners
- Bed B: carrots, beetroot, spring onions in rows
- Bed C: climbing beans on the trellis, courgettes in front

Rotate: last year's brassicas were in A, so no cabbage family there this year. Fill with 50/50 topsoil and compost before April.`,
  },
  {
    key: 'garden-3',
    title: 'Slugs ate everything',
    body: `Lost a whole row of lettuce and the young courgette plants overnight. Silver trails everywhere.

Tried: beer traps (caught dozens), copper tape around the bed edge, going out with a torch at 10pm and picking them off. Wool pellets seemed to work best. Next year grow transplants bigger in pots before setting them out.`,
  },
  {
    key: 'garden-4',
    title: 'Blight on the tomatoes',
    body: `Brown blotches on the lower leaves spreading fast after a week of warm wet weather, and the stems have dark streaks. Looks like late blight.

Removed all affected foliage and binned it (not the compost!), stopped watering from above. Next year: resistant varieties like 'Crimson Crush', and wider spacing for airflow.`,
  },
  {
    key: 'garden-5',
    title: 'Compost bin notes',
    body: `Aim for roughly 2 parts browns (cardboard, dry leaves) to 1 part greens (kitchen scraps, grass clippings). Turned the heap on Sunday — steaming in the middle, good sign.

It was too wet and smelly last month; fixed by adding shredded egg boxes. No meat, no cooked food (rats).`,
  },
  {
    key: 'garden-6',
    title: 'Harvest tally — August',
    body: `- Courgettes: 14 (too many, gave half to the neighbours)
- Tomatoes: ~6 kg, Sungold the most productive by far
- Beans: 3 kg, picked every other day
- Carrots: small and forked — soil too stony
- Cucumbers in the greenhouse went bitter when they dried out`,
  },
  {
    key: 'garden-7',
    title: 'Watering schedule while away',
    body: `Going away 10 days in July. Set up the drip hose on a timer: 20 minutes at 6am daily. Mulched all the beds with straw to hold moisture.

Asked Ellen next door to check the greenhouse every other day and open the vents if it's over 25°C. Left her a key and my number.`,
  },
  {
    key: 'garden-8',
    title: 'Garlic planting',
    body: `Planted 3 bulbs' worth of cloves (softneck 'Early Purple Wight') on 2 November, pointy end up, 15cm apart, 5cm deep. Mulched with leaf mould.

Should be ready to lift in early July when the lower leaves yellow. Dry them in the shed for two weeks before plaiting.`,
  },
  {
    key: 'garden-9',
    title: 'Seed order',
    body: `From the seed catalogue:
- Kelvedon Wonder peas
- Nantes carrots (try again in the sandy bed)
- Little Gem lettuce
- Crimson Crush tomato
- Boston Marrow squash

Total £23.40. Also need fleece for the early sowings.

Sow the peas in lengths of guttering in the greenhouse in March so the mice don't get them, then slide them into the bed.`,
  },
  {
    key: 'garden-10',
    title: 'Aphids on the broad beans',
    body: `Black fly clustered on the tips of the broad beans. Pinched out the tops (you can eat them, steamed like spinach) and sprayed the rest with soapy water.

Ladybirds turned up a week later and finished the job. Next year sow in autumn so the plants are tougher by the time the black fly arrives.`,
  },

  // --- violin ----------------------------------------------------------------
  {
    key: 'violin-1',
    title: 'Practice routine',
    body: `Daily 45 min:
- 10 min open strings with long slow bows (watch the contact point)
- 10 min scales (G major and D major, two octaves)
- 10 min Kreutzer No. 2
- 15 min repertoire (Bach A minor concerto, 1st mvt)

Record once a week on the phone and listen back.`,
  },
  {
    key: 'violin-2',
    title: 'Lesson with Mrs. Okafor — 12 Feb',
    body: `She says my bow arm is too stiff: the wrist should lead on the down-bow and the fingers stay soft.

Homework: bow on open A in front of a mirror to keep it parallel to the bridge. Also my third finger is flat in first position — tape marker back on the fingerboard for a week.`,
  },
  {
    key: 'violin-3',
    title: 'Intonation tricks',
    body: `- Use the open strings as reference: 3rd finger G on the D string should ring with the open G.
- Drone app (tonic on loop) while doing scales slowly.
- Practise shifts with a guide note first, then remove it.
- Check with the app only afterwards, never stare at a needle while the bow is moving.`,
  },
  {
    key: 'violin-4',
    title: 'Vibrato exercises',
    body: `Started arm vibrato, not wrist — teacher thinks it suits my hand better. Knocking-on-the-door exercise, then slow rhythmic oscillations with the metronome at 60: 2 per beat, then 3, then 4.

Keep the thumb relaxed! Still tense after about 5 minutes.`,
  },
  {
    key: 'violin-5',
    title: 'Rosin and strings',
    body: `Switched from Dominant to Evah Pirazzi Gold. Brighter and more projection, but the E whistles sometimes.

Rosin: dark rosin in winter is too sticky — back to the light one. Change strings roughly every 6 months; bow rehair due in April (£65 at the shop on Mill Lane).`,
  },
  {
    key: 'violin-6',
    title: 'Orchestra audition prep',
    body: `Community orchestra audition on 3 May. Required: a 3-octave scale of my choice, a slow movement, sight-reading. Picked the Massenet Méditation.

Plan: play the excerpt for someone every week to get used to the nerves; practise sight-reading with random pages from the Suzuki books; slow breathing in the corridor beforehand.`,
  },
  {
    key: 'violin-7',
    title: 'Sore neck and jaw',
    body: `Left side of my jaw aches after long sessions. The chin rest might be the wrong height — tried a Guarneri style, slightly better. Shoulder rest lowered one notch.

Take breaks every 20 minutes and stretch. If it's still painful, ask about a centre-mounted rest.`,
  },
  {
    key: 'violin-8',
    title: 'Concert notes — Hilary Hahn',
    body: `Heard her play the Sibelius concerto at Symphony Hall. The slow opening was impossibly quiet, and the double stops in the third movement looked effortless.

Note to self: her bow distribution — saving bow on the long notes — is something to copy.`,
  },
  {
    key: 'violin-9',
    title: 'Practice journal — 20 Mar',
    body: `Good session. The sixteenth-note run in the Bach is finally even when I slow it to 50 bpm and think in groups of four.

Bad: lost focus after 30 min because of phone notifications. Tomorrow: phone in another room, and do the hardest passage first while I'm fresh.`,
  },

  // --- running ---------------------------------------------------------------
  {
    key: 'running-1',
    title: 'Half marathon plan — weeks 1–4',
    body: `Base phase, 4 runs a week:
- Tue easy 6k
- Thu intervals 6×400m at 5k pace, 90s jog between
- Sat easy 5k
- Sun long run starting at 10k, adding 1k a week

Keep easy runs conversational, heart rate under 150.`,
  },
  {
    key: 'running-2',
    title: 'Shin splints again',
    body: `Front of the left shin sore after Thursday's intervals on the pavement. Rested 3 days, icing twice a day.

Physio says too much too soon plus worn-out shoes. Plan: cut weekly mileage by a third, more runs on grass or trail, calf raises 3×15 daily.`,
  },
  {
    key: 'running-3',
    title: 'New shoes',
    body: `Tried on five pairs at the running shop. Gait analysis showed mild overpronation. Bought the Brooks Adrenaline, 10mm drop.

The old pair had ~800 km on them — replace every 600–700 km from now on. Log the mileage in the Strava gear tracker.`,
  },
  {
    key: 'running-4',
    title: 'Parkrun PB!',
    body: `23:41 at the Saturday parkrun, down from 24:30. Negative split — went out conservatively and pushed the last kilometre. The intervals are working.

Weather cool, 9°C, no wind. Next target: sub-23 before the summer.

Splits: 4:55, 4:47, 4:42, 4:40, 4:37. Cooldown jog with Sam afterwards.`,
  },
  {
    key: 'running-5',
    title: 'Fuelling for long runs',
    body: `Long runs over 90 min: one gel at 45 min, then every 30 min after. Maurten is easy on the stomach; SiS gave me cramps.

Breakfast 2.5 h before: porridge with honey and a banana. Practise race-day fuel on every long run — nothing new on the day.`,
  },
  {
    key: 'running-6',
    title: 'Race day — Bath Half',
    body: `Finished in 1:52:10. Started too fast in the crowd (first 5k at 5:05/km) and paid for it at mile 10. The hills around the city centre were harder than expected.

Took gels at 45 and 75 min, stomach fine. Next time: stick to 5:20 pace until 15k. Bag drop was chaotic; arrive 45 min early.`,
  },
  {
    key: 'running-7',
    title: 'Strength routine',
    body: `Twice a week after easy runs:
- glute bridges 3×12
- single-leg deadlifts 3×8
- clamshells, calf raises
- plank 3×45s

Foam roll the IT band and calves. Since starting this the knee niggle has gone.

Do it even on busy weeks — 20 minutes is enough, and skipping it is when the aches return.`,
  },
  {
    key: 'running-8',
    title: 'Running in the heat',
    body: `Holiday in Spain, 30°C by 9am. Ran at 7am, slowed pace by 30–40 s/km and ignored the watch. Took a soft flask with electrolytes.

Felt dizzy once and walked the hills after that. Lesson: in the heat, run by effort, not by pace.`,
  },
  {
    key: 'running-9',
    title: 'Knee pain after long run',
    body: `Outside of the right knee hurt from about 14 km into Sunday's long run. Probably the IT band — it appeared after a sudden jump from 14 to 18 km.

Back off the long run for 2 weeks, more foam rolling and hip strength work, and build by no more than 10% a week.`,
  },

  // --- personal finance ------------------------------------------------------
  {
    key: 'budget-1',
    title: 'Monthly budget — January',
    body: `Take-home £2,850.
- Fixed: rent £1,100, council tax £140, utilities ~£180, phone £15, internet £30
- Groceries £350, transport £120
- Savings £400 (auto-transfer on payday)
- Fun money £200

Left over ~£315 for irregular stuff. Overspent on eating out last month by £90.`,
  },
  {
    key: 'budget-2',
    title: 'Emergency fund goal',
    body: `Target: 6 months of essential spending ≈ £11,000. Currently £4,200 in the easy-access saver at 4.6%.

At £400/month I'll hit the target by roughly February next year. Don't touch it for holidays! Only for job loss, the boiler, the car.`,
  },
  {
    key: 'budget-3',
    title: 'Subscriptions audit',
    body: `Went through three months of bank statements: Netflix, Spotify family, Disney+, Audible, gym (£42, went twice in October), two cloud storage plans, a meditation app I'd forgotten about.

Cancelled Disney+, Audible, one storage plan and the app. Saves £38/month. Set a calendar reminder to repeat this every January.`,
  },
  {
    key: 'budget-4',
    title: 'Pension and ISA',
    body: `Bumped my workplace pension contribution from 5% to 8% (employer matches up to 6%).

Opened a stocks & shares ISA with a global index tracker, 0.22% fees. £200/month direct debit. Rule: don't look at it more than once a quarter, and never sell in a panic.`,
  },
  {
    key: 'budget-5',
    title: 'Credit card payoff',
    body: `Balance £2,400 at 24.9% APR. Moved it to a 0% balance-transfer card for 20 months (3% fee). Paying £130/month clears it before the promo ends.

Cut up the old card. After this, avalanche method on the car loan.`,
  },
  {
    key: 'budget-6',
    title: 'Zero-based budgeting — podcast notes',
    body: `Every pound gets a job before the month starts. "True expenses" (car insurance, Christmas, vet) get a monthly share so they're not surprises. Roll over underspend rather than spending it.

App suggestion: YNAB, but a spreadsheet works fine if I actually update it weekly.`,
  },
  {
    key: 'budget-7',
    title: 'Grocery spending experiment',
    body: `Tried meal planning for 4 weeks: list before shopping, no supermarket trips on an empty stomach, own-brand everything.

Spent £268 vs the usual £350. Biggest wins: batch cooking lunches and buying rice and lentils in bulk. Keep it going.`,
  },
  {
    key: 'budget-8',
    title: 'Big purchases wishlist',
    body: `Rule: wait 30 days before buying anything over £100.

Current list: new laptop (~£900, wait for Black Friday), road bike upgrade (£1,200?), standing desk. Pay for these from the irregular pot, not from savings.

Reviewing the list after 30 days usually kills half of it; the standing desk already feels less urgent.`,
  },
  {
    key: 'budget-9',
    title: 'Book notes — The Simple Path to Wealth',
    body: `Key ideas:
- buy low-cost broad index funds and keep buying through crashes
- aim for 25× annual spending, then withdraw about 4% a year
- avoid picking individual stocks; fees compound too
- debt is the enemy of freedom

Fits with the ISA + workplace pension setup I already have.`,
  },

  // --- home repairs / plumbing ----------------------------------------------
  {
    key: 'plumbing-1',
    title: 'Dripping kitchen tap',
    body: `The cold tap dripped every few seconds. Closed the isolation valve under the sink, unscrewed the handle — the ceramic cartridge was worn.

Took the old one to the plumbers' merchant to match (£14). Fitted in 20 minutes, no more dripping. Keep a spare cartridge in the drawer.`,
  },
  {
    key: 'plumbing-2',
    title: 'Blocked bathroom sink',
    body: `Basin draining really slowly. The plunger did nothing.

Took the U-bend off (bucket underneath!) — full of hair and soap gunk. Cleaned it out, reassembled hand-tight plus a quarter turn. Bought a hair catcher for the plughole.

Next time try the plastic drain snake before taking anything apart — £3 from the hardware shop.`,
  },
  {
    key: 'plumbing-3',
    title: 'Toilet keeps running',
    body: `The cistern kept refilling every few minutes, and a thin trickle ran into the bowl all the time. The flapper seal was warped.

Replaced the flush valve washer (£6). Also adjusted the float so the water stops 2cm below the overflow. Quiet at night now.`,
  },
  {
    key: 'plumbing-4',
    title: 'Boiler pressure dropping',
    body: `Pressure gauge kept falling below 1 bar every few days. Topped up via the filling loop to 1.5 each time.

Engineer came Thursday: the expansion vessel had lost its air charge. He recharged it to 1 bar with a foot pump. £85. Pressure has been steady for two weeks since.`,
  },
  {
    key: 'plumbing-5',
    title: 'Bleeding radiators',
    body: `Upstairs radiators cold at the top.

Heating off, radiator key, quarter turn anticlockwise until water spits out, then close. Did all six, starting downstairs. Had to repressurise the boiler afterwards with the filling loop (see the boiler note).

Bled them again a week later; only the landing one had more air in it.`,
  },
  {
    key: 'plumbing-6',
    title: 'Where things are in the house',
    body: `- Main stopcock: under the kitchen sink, behind the bleach
- Gas meter: outside box by the front door
- Fuse box: under the stairs, RCD trips on the left
- Outside tap isolation valve: in the garage, right-hand wall
- Boiler manual: folder in the drawer under the loft hatch`,
  },
  {
    key: 'plumbing-7',
    title: 'Resealing the shower',
    body: `Old silicone was black with mould. Cut it out with a scraper, cleaned with white spirit, let it dry overnight.

Masking tape either side, anti-mould sanitary silicone, smoothed with a wet finger, tape pulled straight away. Leave 24h before showering.`,
  },
  {
    key: 'plumbing-8',
    title: 'Puddle under the washing machine',
    body: `A puddle under the machine after every wash. The inlet hose washer had perished.

Swapped both hoses for braided ones. Also tightened a loose jubilee clip on the waste pipe. Checked again after two washes — bone dry.

Hoses are meant to be swapped every five years anyway; dated a tag on each.`,
  },
  {
    key: 'plumbing-9',
    title: 'Frozen pipe last winter',
    body: `The outside tap pipe froze and split in January. Isolated it at the valve in the garage and replaced a 30cm section with a push-fit coupling.

This year: foam lagging on the pipe, a tap cover, and close the garage valve and drain the tap in November.`,
  },

  // --- travel: Japan ---------------------------------------------------------
  {
    key: 'japan-1',
    title: 'Japan itinerary draft — 14 days',
    body: `Tokyo 4 nights → Hakone 1 night (ryokan with onsen) → Kyoto 4 nights → Nara day trip → Osaka 2 nights → Hiroshima + Miyajima 2 nights → fly home from Osaka (KIX).

Mid-April, so cherry blossom may be over in Tokyo but still going further north.`,
  },
  {
    key: 'japan-2',
    title: 'JR Pass — worth it?',
    body: `Since the price rise (¥50,000 for 7 days) the pass only pays off with lots of long journeys. Our route: Tokyo→Kyoto ¥14,000, Kyoto→Hiroshima ¥11,000, Hiroshima→Osaka ¥10,000.

Buying individual shinkansen tickets is cheaper for us. Get a Suica on the phone for the metro and local lines.`,
  },
  {
    key: 'japan-3',
    title: 'Ryokan booking',
    body: `Booked Fukuzumiro in Hakone for 1 night, kaiseki dinner included, ¥62,000 for two. Check-in 15:00.

Tattoo policy: private bath OK. Luggage forwarding (takkyubin) from the Tokyo hotel so we only carry a day bag.

Yukata provided; dinner is served in the room at 18:30, so no sightseeing late that day.`,
  },
  {
    key: 'japan-4',
    title: 'Food list',
    body: `Must try: okonomiyaki in Hiroshima (layered style), kushikatsu in Shinsekai, tonkatsu at Maisen, conveyor-belt sushi, a proper kaiseki, matcha everything in Uji, the 7-Eleven egg sandwich, ramen at Ichiran (solo booths).

Depachika food halls for picnic supplies.

Most small places are cash only, and many close between lunch and dinner.`,
  },
  {
    key: 'japan-5',
    title: 'Etiquette reminders',
    body: `- No tipping.
- Shoes off where there's a step up.
- Don't eat while walking.
- Stand on the left of escalators in Tokyo, right in Osaka.
- Quiet on trains, no phone calls.
- Carry a small towel and a bag for rubbish — very few bins around.`,
  },
  {
    key: 'japan-6',
    title: 'Kyoto temples shortlist',
    body: `- Fushimi Inari at 7am before the crowds
- Kiyomizu-dera, then walk down through Sannenzaka
- Kinkaku-ji (golden pavilion)
- Arashiyama bamboo early too, then the Tenryu-ji garden
- Philosopher's Path at dusk

Book the Moss Temple (Saiho-ji) by postcard 2 months ahead!`,
  },
  {
    key: 'japan-7',
    title: 'Money and phone for Japan',
    body: `Japan is still cash-heavy in small places — withdraw yen from 7-Eleven ATMs (they accept foreign cards).

eSIM from Ubigi, 10 GB for 15 days. Download Google Maps offline for Kyoto. Pocket wifi not needed.

Tell the bank about the trip so the card doesn't get blocked on the first withdrawal.`,
  },
  {
    key: 'japan-8',
    title: 'Packing list — Japan',
    body: `- slip-on shoes (lots of taking off)
- compact umbrella
- coin purse
- portable charger, adapter type A
- light layers for spring
- small towel
- medication in original packaging with a copy of the prescriptions
- a small day bag for the luggage-forwarding days
- hand sanitiser (few soap dispensers in public toilets)

Leave half the suitcase empty for shopping.`,
  },
  {
    key: 'japan-9',
    title: 'Shinkansen seat tips',
    body: `Reserve seats on the Nozomi out of Tokyo; Mt Fuji is on the right-hand side (seat E) heading west. Oversized luggage needs its own reservation now.

Buy an ekiben at the station for lunch on board. Cars 1–3 are usually unreserved if plans change. Platforms show where each car stops.`,
  },

  // --- machine-learning papers ----------------------------------------------
  {
    key: 'ml-1',
    title: 'Attention Is All You Need (2017)',
    body: `Transformer: drop recurrence entirely, use stacked self-attention + feed-forward layers. Multi-head attention lets different heads attend to different subspaces. Positional encodings via sinusoids.

Scaled dot product (divide by √d_k) keeps softmax gradients sane. Trained on WMT En–De in 3.5 days on 8 P100s.`,
  },
  {
    key: 'ml-2',
    title: 'BERT',
    body: `Bidirectional encoder pretrained with a masked LM (15% of tokens; 80/10/10 mask/random/keep) plus next-sentence prediction (later shown to be mostly useless by RoBERTa).

Fine-tune the whole model per task with a small head on top. The [CLS] token embedding is used for classification.`,
  },
  {
    key: 'ml-3',
    title: 'Scaling laws (Kaplan et al. 2020)',
    body: `Loss falls as a power law in parameters, data and compute, over many orders of magnitude. Bigger models are more sample-efficient.

Chinchilla later corrected the compute-optimal ratio to ~20 tokens per parameter, so most large models of that era were undertrained.`,
  },
  {
    key: 'ml-4',
    title: 'Dropout paper',
    body: `Randomly zero units during training with probability p; at test time scale the activations instead. Acts like an ensemble of exponentially many thinned sub-models and reduces co-adaptation between units.

Still useful in small-data regimes; much less so in huge pretrained LLMs.`,
  },
  {
    key: 'ml-5',
    title: 'Reading group — LoRA',
    body: `Presented LoRA today. Freeze the pretrained weights and learn low-rank update matrices A·B in the attention projections. Rank 8 is often enough. Tiny number of trainable params, no extra inference latency after merging.

Question from Priya: why does it work at all? Intrinsic dimensionality argument (Aghajanyan et al.).`,
  },
  {
    key: 'ml-6',
    title: 'Sentence embeddings — SBERT',
    body: `Siamese BERT with mean pooling, trained on NLI pairs, then cosine similarity between sentence vectors.

For 10k sentences: from 65 hours of pairwise cross-encoding down to 5 seconds. Cross-encoders are still more accurate, so use them for reranking the top results.`,
  },
  {
    key: 'ml-7',
    title: 'ResNet',
    body: `Deep nets got worse with depth (degradation, not overfitting — training error went up too). Fix: learn a residual F(x) and add an identity skip connection.

152 layers on ImageNet, won ILSVRC 2015. Batch norm after each conv.

The idea shows up everywhere now, including inside every transformer block.`,
  },
  {
    key: 'ml-8',
    title: 'To read list',
    body: `- Chinchilla (compute-optimal training)
- FlashAttention (IO-aware exact attention)
- DPO vs RLHF
- Mamba / state space models
- Contrastive learning: SimCLR, CLIP

Priority: FlashAttention, since our inference is memory-bound.
- Constitutional AI

Goal: one a week, with a five-line summary added here after each, like the other entries.`,
  },
  {
    key: 'ml-9',
    title: 'Adam vs SGD',
    body: `Adam: per-parameter adaptive step sizes from first and second moment estimates, with bias correction early on. Often generalises worse than SGD with momentum on vision tasks.

AdamW decouples weight decay — use that, not an L2 term in the loss. Warmup helps transformers.`,
  },

  // --- curries ---------------------------------------------------------------
  {
    key: 'curry-1',
    title: 'Chicken tikka masala — attempt 3',
    body: `Marinated thighs overnight in yogurt, garam masala, Kashmiri chilli and ginger-garlic paste. Charred under the grill.

Sauce: butter, onion cooked down for 20 min, passata, cream, kasoori methi crushed in at the end. Best one yet — the methi is the secret.`,
  },
  {
    key: 'curry-2',
    title: 'Dal tadka',
    body: `1 cup toor dal, pressure cook for 4 whistles with turmeric.

Tadka: ghee, cumin seeds, mustard seeds, a dried red chilli, curry leaves, a pinch of asafoetida, garlic slices until golden. Pour over the dal while it's sizzling. Squeeze of lemon, fresh coriander.`,
  },
  {
    key: 'curry-3',
    title: 'Thai green curry from scratch',
    body: `Paste: green chillies, lemongrass, galangal, shallots, garlic, coriander roots, shrimp paste, cumin, white pepper, makrut lime zest.

Fry the paste in the split coconut cream until the oil separates. Fish sauce + palm sugar to balance. Thai basil at the end.`,
  },
  {
    key: 'curry-4',
    title: 'Spice cupboard restock',
    body: `Running low: cumin seeds, coriander seeds, black cardamom, cloves, cinnamon sticks, fenugreek, Kashmiri chilli powder.

Buy from the Asian grocer on Stanley Road, much cheaper than supermarket jars. Toast whole spices and grind small batches — ground stuff goes stale in about 3 months.`,
  },
  {
    key: 'curry-5',
    title: 'Vindaloo disaster',
    body: `The vindaloo was far too fiery for the guests — Tom was in tears.

What I tried: stirred in extra yogurt (off the hob so it doesn't split), a spoon of sugar, a tin of coconut milk. Next time use Kashmiri chilli for colour and only 2 bird's eye chillies. Serve raita on the side.`,
  },
  {
    key: 'curry-6',
    title: 'Lamb rogan josh (slow cooker)',
    body: `Brown the lamb shoulder in batches. Onions, whole spices (cardamom, cloves, bay), then a paste of Kashmiri chilli, fennel and ginger powder. 8 hours on low.

Finish with a pinch of saffron. Rich and deep — freeze half for later.

Even better the next day.`,
  },
  {
    key: 'curry-7',
    title: 'Curry night for 8 people',
    body: `Menu: chicken tikka masala, chana masala, saag aloo, jeera rice, garlic naan (shop), raita, mango pickle.

Cook the sauces the day before — they taste better. Rice in the oven method so the hob's free. Shopping list on the fridge.

Ask about allergies — Sam can't have nuts.`,
  },
  {
    key: 'curry-8',
    title: 'Japanese curry at home',
    body: `Golden Curry roux block is cheating but great. Onion caramelised, carrot, potato, chicken. Grated apple and a spoon of honey.

Serve with rice and fukujinzuke pickles. Katsu version: breaded pork cutlet on top.

Add frozen peas at the end for colour. The kids love it more than any other curry I cook.`,
  },
  {
    key: 'curry-9',
    title: 'Homemade naan',
    body: `No tandoor: cast iron pan on the highest heat, then under the grill to puff.

Dough: flour, yogurt, a pinch of baking powder, a little sugar, rested 2 hours. Brush with garlic butter and nigella seeds straight away.

Makes 6; freeze spares between sheets of baking paper.`,
  },
  {
    key: 'curry-10',
    title: 'Korma for the kids',
    body: `A korma the kids will actually eat: onions softened in butter, ground almonds, cashew paste, cream, a little sugar, cardamom. No chilli at all — just paprika for colour.

Gentle enough for a four-year-old. Adults add green chilli pickle on their own plate.`,
  },

  // --- bird watching ---------------------------------------------------------
  {
    key: 'bird-1',
    title: 'Big Garden Birdwatch',
    body: `One hour, Sunday 28 Jan: 6 house sparrows, 4 blue tits, 2 great tits, 1 robin, 3 blackbirds, 2 goldfinches on the nyjer feeder, 1 dunnock, 7 starlings, 2 wood pigeons.

No greenfinches this year. Submitted online.

Most birds came in the first twenty minutes, then a sparrowhawk flew through and everything vanished.`,
  },
  {
    key: 'bird-2',
    title: 'Red kite at the reservoir',
    body: `Walk around Draycote Water. A red kite low over the car park, forked tail obvious.

On the water: great crested grebes displaying, tufted ducks, a single goldeneye. Missed the reported scaup — it had moved to the far bank.

Coffee from the sailing club café, then round the far side to the hide.`,
  },
  {
    key: 'bird-3',
    title: 'Binoculars',
    body: `Borrowed 8×42 and 10×42 pairs. 8× is steadier and brighter for woodland; 10× better for estuaries.

Ordered the Nikon Monarch M5 8×42 (£280). Close focus is ~2.5 m, which is great for butterflies too.

Carry them on a harness rather than round the neck.`,
  },
  {
    key: 'bird-4',
    title: 'Warblers are hard',
    body: `Chiffchaff vs willow warbler: the chiffchaff has dark legs and says its name; the willow warbler has pale legs, a descending liquid song and a longer primary projection.

Blackcap: scratchy start, then fluty. Use the Merlin app to record songs and check.`,
  },
  {
    key: 'bird-5',
    title: 'Dawn chorus walk',
    body: `5am with the local group. Order of singing: robin and blackbird first in the dark, then song thrush (repeats each phrase), wren (tiny bird, enormous volume), chaffinch.

Heard a cuckoo in the distance — first of the year, 22 April.

Learn three new songs every spring; this year the blackcap and garden warbler, which sound confusingly alike.`,
  },
  {
    key: 'bird-6',
    title: 'Feeder hygiene',
    body: `Scrub feeders every two weeks with diluted disinfectant, rinse and dry. Move them around so droppings don't build up underneath.

Trichomonosis wiped out greenfinches locally — if I see a sick bird, take the feeders down for two weeks.

Also refresh the bird bath water every day in summer.`,
  },
  {
    key: 'bird-7',
    title: 'Estuary trip — waders',
    body: `Low tide at the Exe estuary. Avocets (about 300!), black-tailed godwits, curlews, redshank, dunlin in a big wheeling flock, a little egret.

Bring the scope next time; the binoculars weren't enough at that distance.

Check tide tables: two hours before high tide is best, when the birds get pushed closer.`,
  },
  {
    key: 'bird-8',
    title: 'Barn owl box and pellets',
    body: `Put up a barn owl box on the old oak at the edge of the field (4m high, entrance facing away from the prevailing wind).

Found pellets under the barn — dissected one with the kids: 3 vole skulls and a shrew jaw.`,
  },
  {
    key: 'bird-9',
    title: 'Lifer list 2024',
    body: `New birds this year: bearded tit (Minsmere), hawfinch (Forest of Dean), spoonbill (Cley), firecrest (local churchyard!).

Target: nightjar in June on the heath — go at dusk and listen for the churring before trying to see one.

Still need to learn the difference between marsh and willow tit by song.`,
  },

  // --- parenting / toddler sleep ---------------------------------------------
  {
    key: 'toddler-1',
    title: 'Sleep training — week 1 (Ferber)',
    body: `Started graduated check-ins with Maya (18 months).
- Night 1: cried 45 min, checks at 3, 5, 10 min
- Night 2: 25 min
- Night 3: 10 min
- Night 5: went down with just a bit of grumbling

Consistency matters — both of us have to do it the same way.`,
  },
  {
    key: 'toddler-2',
    title: 'Bedtime routine',
    body: `6:30 bath, 6:45 pyjamas and milk, 6:55 two books (the same two every night!), song, lights out 7:05.

White noise on, blackout blind down. Grobag 1.0 tog in summer. The routine takes 35 minutes; don't rush it.`,
  },
  {
    key: 'toddler-3',
    title: 'Early waking (5am)',
    body: `Maya's started waking at 5am. Tried: later bedtime (made it worse), taping the gaps of the blackout blind, a Gro-clock set to 6:15 — she's allowed out when the sun appears.

After two weeks she's waking at 6ish. Don't go in before 6 unless she's upset.`,
  },
  {
    key: 'toddler-4',
    title: 'Nap transition',
    body: `Dropped from 2 naps to 1 at 15 months. Single nap 12:30–14:30.

For a few weeks she was a wreck by 5pm — moved bedtime earlier to 6:30 temporarily. Nursery does the nap at 12 too, which keeps it consistent.`,
  },
  {
    key: 'toddler-5',
    title: 'Tantrums — book notes (The Whole-Brain Child)',
    body: `Connect and redirect: name the feeling first ("You're sad the park is finished"), then offer a choice.

Upstairs/downstairs brain — no point reasoning mid-meltdown. Stay calm and close. It's developmental, not manipulation.

Afterwards, once she's calm, talk through what happened with a simple story; she loves hearing it.`,
  },
  {
    key: 'toddler-6',
    title: 'Picky eating',
    body: `Offer one safe food with every meal. No pressure, no bribes. Let her serve herself.

Repeated exposure — it can take 15 tries. Broccoli finally eaten after we started calling it "little trees".

Family meals at the table whenever possible, and I eat the same food so she sees it.`,
  },
  {
    key: 'toddler-7',
    title: 'Nursery settling-in',
    body: `Three settling sessions: 1 hr with me, 2 hrs without, then a half day. Key worker is Jess.

Cried at drop-off for the first week, fine within 5 minutes according to Jess. Label everything, spare clothes in the bag.`,
  },
  {
    key: 'toddler-8',
    title: 'Health visitor — 2 year review',
    body: `- Talking: about 50 words, starting two-word phrases — on track
- Teeth: brush twice a day, pea-sized fluoride toothpaste
- Sleep: 11–12 hours at night is normal
- Next vaccinations due at 3 yrs 4 months

The two-and-a-half year developmental check happens at nursery too.`,
  },
  {
    key: 'toddler-9',
    title: 'Night wakings during teething',
    body: `Molars coming through — up 3 times a night crying. Calpol before bed did the trick; a cold teething ring in the day.

Went back to comforting without picking her up so we don't undo the sleep training.

The teething phase lasted about ten days, then she was sleeping through again.`,
  },

  // --- job interviews --------------------------------------------------------
  {
    key: 'interview-1',
    title: 'Behavioural questions — STAR stories',
    body: `Prepare 6 stories: conflict with a colleague (the API versioning argument), failure (missed launch in 2022), leadership without authority (migration guild), tight deadline, mentoring, pushing back on scope.

Situation-Task-Action-Result, 2 minutes each, quantify the result.

Practise them out loud with a timer; rambling is my weak spot.`,
  },
  {
    key: 'interview-2',
    title: 'Acme Corp — first round',
    body: `Call with the recruiter, 30 min. Role: senior backend, Go + Postgres, hybrid 2 days in the office. Salary band £85–95k.

Next: technical screen with two engineers. Ask about the on-call rotation next time.

Recruiter seemed keen and said the team is growing fast after the Series B.`,
  },
  {
    key: 'interview-3',
    title: 'System design practice',
    body: `Design a URL shortener: estimate QPS, key generation (base62 of a counter vs hash), storage in a KV store, cache hot links, analytics via an async queue.

Practise talking through trade-offs out loud, draw the boxes first, then deep-dive one component.`,
  },
  {
    key: 'interview-4',
    title: 'Questions to ask them',
    body: `- What does success look like in the first 90 days?
- How are priorities set between product and engineering?
- What's the on-call load really like?
- Why did the last person leave?
- How do you handle disagreements about technical direction?
- What would make someone great in this role?`,
  },
  {
    key: 'interview-5',
    title: 'Rejected by Globex — feedback',
    body: `They said my coding was strong but the system design round lacked depth on data consistency. Fair.

I also rambled on "tell me about yourself" — I need a crisp 90-second version.

Ask for feedback every time, even after a rejection — most are happy to give a few lines.`,
  },
  {
    key: 'interview-6',
    title: 'Salary negotiation',
    body: `Never give the first number. If pushed: "based on my research the range for this role is X–Y".

Get the offer in writing, then ask for 10% more and a signing bonus. Compare total comp: pension, bonus, equity, holidays.`,
  },
  {
    key: 'interview-7',
    title: 'Nerves before the panel',
    body: `Panel tomorrow with four people. Breathing: 4 in, 6 out.

Walk there, arrive 15 min early, water bottle. Reminder: they want me to do well. Post-it with my three key stories on the laptop bezel.

Afterwards: it went fine; the nerves faded after the first question.`,
  },
  {
    key: 'interview-8',
    title: 'Offer from Acme',
    body: `Got the offer! £92k base, 10% bonus, 25 days holiday + bank holidays, 8% pension match.

Countered at £98k — they came back at £96k. Start date 3 June; need to give 4 weeks' notice at the current job.

Signed on Friday and told my manager on Monday.`,
  },
  {
    key: 'interview-9',
    title: 'Leetcode plan',
    body: `Two problems a day for 6 weeks, mostly mediums.

Patterns: sliding window, two pointers, BFS/DFS, heap for top-k, DP on subsequences. Time-box 30 min, then read the solution and re-solve it the next day.

Track which patterns I fail in a spreadsheet.`,
  },

  // --- tax -------------------------------------------------------------------
  {
    key: 'tax-1',
    title: 'Self assessment checklist',
    body: `Deadline 31 January (online). Need:
- P60 from the employer, P11D for benefits
- interest statements from the savings accounts
- freelance income and expenses
- pension contributions outside payroll
- gift aid donations

UTR number is in the password manager.

Start gathering in early December so January isn't a panic.`,
  },
  {
    key: 'tax-2',
    title: 'Freelance income records',
    body: `Side gigs this tax period: 3 websites, total £6,400. Invoices in the Drive folder "Freelance/Invoices".

Allowable expenses: a portion of broadband, the laptop (capital allowance), software subscriptions. Keep every receipt until at least 2030.

Scan paper receipts with the phone the same day; the ink fades.`,
  },
  {
    key: 'tax-3',
    title: 'Payment on account surprise',
    body: `Filed the return and owed £2,100 plus a £1,050 payment on account towards next year — both due on 31 Jan. Ouch.

From now on: set aside 30% of every freelance invoice in a separate pot.

Lesson: check the account projections before spending any bonus.`,
  },
  {
    key: 'tax-4',
    title: 'Tax code wrong',
    body: `New payslip shows 1257L W1 — an emergency code after the job change.

Called HMRC (45 min on hold), gave them the new employer's PAYE reference. Corrected from next month, and the overpaid tax is refunded through payroll.

Check every payslip for the first two months in a new job.`,
  },
  {
    key: 'tax-5',
    title: 'Gift aid & charity',
    body: `Donations since April: £240 to the hospice, £120 to Shelter, all with gift aid.

Higher-rate relief: claim the difference on the return (box in the Gift Aid section). Keep the confirmation emails as proof.

Gift aid only counts if I've paid enough income tax to match it.`,
  },
  {
    key: 'tax-6',
    title: 'Accountant meeting',
    body: `Met Sanjay (accountant), £350 fee.

Advice: don't use the £1,000 trading allowance — my expenses exceed it, so claim actual costs. Claim the laptop under capital allowances in one go. Marriage allowance not applicable to us.

Next meeting in October, before the busy season.`,
  },
  {
    key: 'tax-7',
    title: 'Rental income — spare room',
    body: `Lodger pays £550/month. Rent a Room scheme: the first £7,500 is tax-free, so nothing to declare unless I go over.

Keep a simple log of rent received anyway, in the same spreadsheet as the bills.

If the rent ever goes up, recheck the threshold.`,
  },
  {
    key: 'tax-8',
    title: 'HMRC letter',
    body: `Letter says I underpaid £312 in 2022/23 due to the benefit in kind (company car fuel?). They'll collect it through next year's code.

Checked the P11D — it's correct. Nothing to do but note it and expect a smaller payslip.`,
  },
  {
    key: 'tax-9',
    title: 'US tax — FBAR',
    body: `Still a US citizen, so I file a 1040 every year even living in the UK. Foreign earned income exclusion, and FBAR for accounts over $10,000 aggregate.

Due 15 April, but there's an automatic extension to 15 June for overseas filers.`,
  },

  // --- car maintenance -------------------------------------------------------
  {
    key: 'car-1',
    title: 'Oil change — March 2024',
    body: `Did it myself: 4.2 L of 5W-30 (spec ACEA C3), new filter, new drain plug washer. Odometer 68,450 mi.

Next due at 78,000 or one year. Took the old oil to the tip in the empty bottles.`,
  },
  {
    key: 'car-2',
    title: 'MOT result',
    body: `Passed with advisories: front tyres near the legal limit (2mm), slight corrosion on the rear brake pipes, oil misting on a shock absorber.

Booked tyres for next week. MOT due again 14 Oct.

Tester said the brake pipes will probably fail next time, so get them replaced before then.`,
  },
  {
    key: 'car-3',
    title: 'Service history',
    body: `- 2021-09 main dealer major service (£420), 52,100 mi
- 2022-10 independent garage interim service, new lubricant & filter (£180), 60,300 mi
- 2023-10 timing belt + water pump (£640), 66,900 mi

Keep receipts in the glovebox folder.

Next one due October.`,
  },
  {
    key: 'car-4',
    title: 'Engine warning light',
    body: `Amber engine management light came on on the motorway. Code reader (OBD2): P0420, catalyst efficiency below threshold.

Garage says it could be the downstream O2 sensor (£90) before a new cat (£600+). Booked in for Friday.

Car drives fine meanwhile, no loss of power, so no need to stop using it.`,
  },
  {
    key: 'car-5',
    title: 'Tyres',
    body: `Fitted 2× Michelin CrossClimate 2 on the front, £238 fitted. All-season, so no winter swap needed.

Pressures: 33 psi front, 30 rear (36/33 fully loaded). Rotate them at the next service.

Check the pressures monthly at the petrol station; the rear left creeps down slowly.`,
  },
  {
    key: 'car-6',
    title: 'Car insurance renewal',
    body: `Renewal quote went up from £510 to £740!

Comparison sites: best like-for-like was £560 with Admiral. Called the current insurer, they matched at £575 — went with that to keep things simple. Protected no-claims, 10 years.

Lesson: never auto-renew, always ring them.`,
  },
  {
    key: 'car-7',
    title: 'Winter kit for the boot',
    body: `Ice scraper, de-icer, blanket, torch, jump leads, phone charger, shovel, bottle of water, snacks.

Check the screenwash is -15°C concentrate. The battery is 5 years old — have it tested before December.

Swap the summer wiper blades and check the antifreeze strength at the same time.`,
  },
  {
    key: 'car-8',
    title: 'Battery died',
    body: `Car wouldn't start after a week parked in the cold. Jump started from Tom's car.

Halfords tested it: 40% health. Replaced with a Varta (£120). The clock on the display needed resetting afterwards.

Short journeys in winter never charge it properly — a long drive once a week does it good.`,
  },
  {
    key: 'car-9',
    title: 'Fuel economy log',
    body: `Averaging 47 mpg on the commute, 52 on long motorway runs. Dropped to 41 in winter.

Correct tyre pressures and taking the roof box off improved it by ~3 mpg.

Smooth driving and keeping to 65 on the motorway made the biggest difference of all.`,
  },

  // --- meditation -------------------------------------------------------------
  {
    key: 'meditation-1',
    title: 'Starting out — 10 minutes a day',
    body: `Headspace basics course. Sit, close eyes, notice the breath at the nostrils, count 1 to 10 and start again when the mind wanders.

It wanders constantly — that's the point, noticing is the rep. Day 6 and it's getting slightly easier.`,
  },
  {
    key: 'meditation-2',
    title: 'Box breathing before stressful things',
    body: `4 seconds in, hold 4, out 4, hold 4. Repeat for 2 minutes.

Used it in the dentist's waiting room and before presenting at the all-hands — heart rate noticeably lower. A Navy SEAL thing apparently, but it works.

Also good at night.`,
  },
  {
    key: 'meditation-3',
    title: 'Body scan',
    body: `Lying down, 20 minutes: attention moves from the toes to the top of the head, noticing sensations without changing them.

Fell asleep twice. Better sitting up in the afternoon. Tension in the jaw and shoulders is always there.

Next: try the 10-minute version before lunch.`,
  },
  {
    key: 'meditation-4',
    title: 'Retreat day notes',
    body: `Silent day retreat at the Buddhist centre. Alternating 30 min sitting and 30 min walking meditation. Lunch in silence, eating slowly — noticed how fast I usually eat.

Teacher's line: "You can't stop the waves, but you can learn to surf."`,
  },
  {
    key: 'meditation-5',
    title: 'Loving-kindness practice',
    body: `Metta phrases: may you be safe, may you be happy, may you be healthy, may you live with ease.

Start with myself, then a friend, a neutral person, someone difficult, all beings. Felt awkward for weeks, then oddly moving.

Ten minutes on Sundays.`,
  },
  {
    key: 'meditation-6',
    title: 'Streak broken',
    body: `Missed 5 days after the holiday. Rather than restarting from zero with guilt, I just sat for 2 minutes today.

Habit stacking: sit right after the first coffee, cushion by the window, phone in the other room.

Two minutes counts. Showing up is the habit.`,
  },
  {
    key: 'meditation-7',
    title: 'Book: The Mind Illuminated',
    body: `Ten stages. Stages 2–3: overcome forgetting and mind-wandering, using the breath at the nose. Distinguish attention vs awareness.

Progress isn't linear. Useful tip: label "thinking" and gently return; celebrate noticing rather than scolding.

Reading one stage a month and practising it before moving on.`,
  },
  {
    key: 'meditation-8',
    title: 'Racing thoughts at 2am',
    body: `Can't switch off at 2am — work stuff going round on a loop.

What helps: get out of bed if awake more than 20 min, write the thoughts on paper, 4-7-8 breathing (in 4, hold 7, out 8), and a caffeine cut-off at noon.`,
  },
  {
    key: 'meditation-9',
    title: 'Yoga nidra',
    body: `Started a 25-minute yoga nidra recording in bed on the nights my mind is buzzing. Lie still, follow the voice around the body, set an intention.

Usually out cold before the end. Much better than scrolling on the phone. Insight Timer has free ones.`,
  },

  // --- photography ------------------------------------------------------------
  {
    key: 'photo-1',
    title: 'Exposure triangle cheat sheet',
    body: `- Aperture: f/1.8 for a blurry background, f/8 for landscapes sharp front to back.
- Shutter: 1/focal length minimum handheld; 1/1000 to freeze kids or sport.
- ISO: as low as possible, but a sharp noisy shot beats a blurry clean one.

Auto-ISO with a minimum shutter speed set is my default.`,
  },
  {
    key: 'photo-2',
    title: 'Golden hour portraits',
    body: `Shot Lena in the park an hour before sunset. 85mm at f/2, sun behind her for rim light, reflector to bounce light into the face.

Focus on the near eye. Underexposed by 1/3 stop to keep the sky.`,
  },
  {
    key: 'photo-3',
    title: 'Lightroom workflow',
    body: `Import → flag picks (P) / rejects (X) → delete rejects → basic panel: white balance, exposure, highlights −50, shadows +30 → crop → export 2048px long edge for the web.

Keyword on import. Back up the catalog weekly.

Keep the picks folder small: twenty good frames beat two hundred average ones.`,
  },
  {
    key: 'photo-4',
    title: 'Milky Way attempt',
    body: `Dark site near the reservoir, new moon. 14mm f/2.8, 20 s, ISO 3200, manual focus on a bright star with live view magnified.

The 500 rule was too long — stars trailed at the edges. Stack 10 frames in Sequator to cut the noise.`,
  },
  {
    key: 'photo-5',
    title: 'Birthday party shots all smeared',
    body: `Most of the birthday party shots came out smeared. The shutter was at 1/30 in auto mode and the kids were moving.

Fixes: shutter priority at 1/250, let ISO go to 6400, use the 35mm f/1.4 wide open, or bounce the flash off the ceiling.`,
  },
  {
    key: 'photo-6',
    title: 'Gear wishlist',
    body: `Current: Fuji X-T3, 18–55, 35mm f/1.4.

Want: 16mm f/2.8 for street/landscape, a lighter travel tripod (Peak Design, ~£350), an ND filter for waterfalls. Sell the old 50–230 to pay for part of it.`,
  },
  {
    key: 'photo-7',
    title: 'Composition ideas from the workshop',
    body: `Rule of thirds as a starting point, not a rule. Leading lines, frames within frames, negative space.

Shoot the same scene from three heights. Check the edges of the frame for distractions before pressing the shutter.

Homework from the workshop: one walk a week shooting only reflections.`,
  },
  {
    key: 'photo-8',
    title: 'Backups',
    body: `3-2-1: originals on the NAS, a second copy on the external SSD, a third in Backblaze.

Lost a whole 2019 trip to a dead SD card — never format cards until the backup is verified.

Check the backups quarterly by restoring a random folder.`,
  },
  {
    key: 'photo-9',
    title: 'Street photography day',
    body: `Zone focus at f/8, 3m, 1/500. Stood by the market entrance and waited for people to walk into the light.

Felt awkward at first; asking permission afterwards was mostly fine. Best shot: the fishmonger laughing.

Next time try the 16mm and get closer.`,
  },
  {
    key: 'photo-10',
    title: 'Shake with the long zoom',
    body: `At 230mm handheld nearly everything at the air show was smeared, even in daylight.

Turn stabilisation ON (it was off!), brace elbows against the body, exhale and squeeze, 1/500 or faster. Or take the monopod.

Practised on pigeons in the park; hit rate went from one in ten to about half.`,
  },

  // --- chess ------------------------------------------------------------------
  {
    key: 'chess-1',
    title: 'Italian Game basics',
    body: `1.e4 e5 2.Nf3 Nc6 3.Bc4. Ideas: c3 and d4 to build the centre; the slow Giuoco Pianissimo with d3 is solid.

Watch for the Fried Liver if Black goes 3...Nf6 4.Ng5. Castle early.

Good for quick development and an early attack on f7.`,
  },
  {
    key: 'chess-2',
    title: 'Sicilian as Black',
    body: `Learn the Najdorf? Too much theory. The coach suggests the Accelerated Dragon or the Taimanov — more ideas, less memorisation.

Key idea: the ...d5 break whenever it works.

Plan: watch a Taimanov course on Chessable, then play it in blitz for a month before using it in club games.`,
  },
  {
    key: 'chess-3',
    title: 'Tactics training plan',
    body: `20 puzzles a day on Lichess, rated mode. Themes I miss: back-rank mates, knight forks, removing the defender, zwischenzug.

Rating went from 1650 to 1780 in two months. Don't rush: checks, captures, threats first.

Slow untimed puzzles are better for learning than puzzle rush.`,
  },
  {
    key: 'chess-4',
    title: 'Club game vs Dave — lost',
    body: `Had White and got a comfortable position early on, but blundered a piece on move 23 in time trouble (2 min left).

Lesson: spend less time on moves 10–15 deciding plans; use the increment.

Annoying — it was winning, and Dave knew it.`,
  },
  {
    key: 'chess-5',
    title: 'Endgames to know',
    body: `King and pawn: opposition, key squares, the square of the pawn.

Lucena (build a bridge) and Philidor (third-rank defence) in rook endgames. Knight vs pawn near the corner is a draw surprisingly often.

Work through Silman's endgame course, one chapter a week.`,
  },
  {
    key: 'chess-6',
    title: 'Caro-Kann repertoire',
    body: `Against 1.e4: 1...c6. Main line 2.d4 d5 3.Nc3 dxe4 4.Nxe4 Bf5. Advance: 3.e5 Bf5, then ...e6 and ...c5.

Solid, with fewer sharp lines to memorise than the Sicilian. Pawn structure is the key to the middlegame plans.`,
  },
  {
    key: 'chess-7',
    title: 'Tournament report — Easter congress',
    body: `3.5/5 in the Major section. Won with the Caro-Kann twice.

Lost round 4 in a long endgame (rook + pawn — should have held with the Philidor!). Performance rating ~1820.

Best game: round 2, a long squeeze in the Advance Variation. Analyse all five games with the engine this week.`,
  },
  {
    key: 'chess-8',
    title: "Queen's Gambit as White",
    body: `1.d4 d5 2.c4. If ...dxc4, don't try to hold the pawn — develop and take it back later.

Vs the Slav: 3.Nf3 Nf6 4.Nc3. Minority attack in the Exchange Variation: b4–b5 to create weaknesses on the queenside.`,
  },
  {
    key: 'chess-9',
    title: 'Time management',
    body: `Budget: 10 min for the first 10 moves, most of the time for the critical middlegame moments. Don't spend 8 minutes on an obvious recapture.

Under 5 min: play safe moves and rely on the increment.

Practise with 15+10 games online to build the habit.`,
  },

  // --- houseplants ------------------------------------------------------------
  {
    key: 'plant-1',
    title: 'Monstera care',
    body: `Bright indirect light, east window. Water when the top 5cm of soil is dry — roughly weekly in summer, every 2–3 weeks in winter.

Moss pole installed so it climbs. New leaf unfurling with fenestrations!

Wipe the big leaves monthly so they can photosynthesise properly.`,
  },
  {
    key: 'plant-2',
    title: 'Fiddle leaf fig dropping leaves',
    body: `Lost 4 leaves in a week after moving it to the living room. They hate being moved and draughts.

Moved it away from the radiator but kept the same light. Don't water until it recovers.

Three weeks later there's a new bud at the top, so it's settling.`,
  },
  {
    key: 'plant-3',
    title: 'Repotting day',
    body: `Repotted the snake plant (root-bound, cracking its plastic pot), the pothos and the peace lily. Only go up 2–5cm in pot size.

Chunky mix: 2 parts potting compost, 1 perlite, 1 orchid bark. Firm gently, water in.

Do it in spring.`,
  },
  {
    key: 'plant-4',
    title: 'Fungus gnats',
    body: `Tiny black flies around the pots. The larvae live in the damp top layer of compost.

Let the soil dry out more between waterings, yellow sticky traps, a top layer of sand. Mosquito bits (BTI) in the watering can.

Gone in three weeks.`,
  },
  {
    key: 'plant-5',
    title: 'Overwatering lesson',
    body: `The calathea's stems went mushy at the base and the roots smelled rotten. Too much water plus a pot with no drainage hole.

Cut off the rotten roots and repotted into fresh mix in a terracotta pot. Water only when the pot feels light.`,
  },
  {
    key: 'plant-6',
    title: 'Propagating pothos',
    body: `Cut below a node, 3–4 leaves per cutting. Into a glass of water on the kitchen windowsill.

Roots after ~2 weeks; pot up when they're 5cm long. Gave 3 to colleagues.

Pothos cuttings root easily; the string of pearls didn't at all — try soil next time.`,
  },
  {
    key: 'plant-7',
    title: 'Houseplant holiday care',
    body: `Away 2 weeks: grouped the plants in the bathroom (humid, good light), soaked everything the night before, self-watering spikes in the big pots.

Succulents left alone — they'll be fine.

Everything survived, even the fussy maidenhair fern at the back.`,
  },
  {
    key: 'plant-8',
    title: 'Brown crispy edges',
    body: `Calathea and peace lily leaves crisp at the edges — low humidity from the heating.

Pebble tray, grouped them together, switched to filtered water (chlorine and fluoride in tap water can do it too).

New growth looks healthy; I just trim the old brown tips with scissors.`,
  },
  {
    key: 'plant-9',
    title: 'Light needs',
    body: `- Low light OK: snake plant, ZZ, pothos.
- Bright indirect: monstera, fiddle leaf fig, calathea (never direct sun).
- Full sun: succulents, the jade plant on the south sill.

Rotate pots a quarter turn each week so they don't lean towards the window. The succulents go outside in summer.`,
  },

  // --- coffee -----------------------------------------------------------------
  {
    key: 'coffee-1',
    title: 'V60 recipe',
    body: `15 g coffee, 250 g water at 94°C. Medium-fine grind (Comandante, 24 clicks).

Bloom 45 s with 40 g, then pour in slow circles to 250 g by 1:45. Drawdown finishes around 3:00. Swirl, don't stir.`,
  },
  {
    key: 'coffee-2',
    title: 'Dialling in espresso',
    body: `New beans (Ethiopian, light roast). 18 g in, 36 g out.

First shot 22 s and sour → grind finer. Second 31 s, sweeter but slightly bitter. Settled on 28 s at 94°C. Change one variable at a time!

Write the settings on the bag.`,
  },
  {
    key: 'coffee-3',
    title: 'Sour vs bitter cheat sheet',
    body: `- Sour, thin, salty = under-extracted → finer grind, hotter water, longer time.
- Bitter, dry, hollow = over-extracted → coarser, cooler, shorter.
- Weak but balanced = more coffee (change the ratio).

Taste before changing anything else.

Adjust the grind first; it has the biggest effect on espresso.`,
  },
  {
    key: 'coffee-4',
    title: 'Beans I liked',
    body: `- Square Mile Red Brick: chocolate, reliable for milk drinks
- Origin Kenya Kiambu: blackcurrant, grapefruit, amazing as filter
- Colonna Ethiopia Guji: peach, jasmine
- Local roaster's Brazil: nutty, boring black but fine in a flat white

Reorder the Kiambu when it's back in season.`,
  },
  {
    key: 'coffee-5',
    title: 'Grinder cleaning',
    body: `Every month: brush out the burrs, run Grindz tablets through, then purge 10 g of beans.

Old oily dark-roast residue stuck in the burrs was making everything taste stale and rancid, even fresh light roasts. Vacuum the chute too.`,
  },
  {
    key: 'coffee-6',
    title: 'Milk steaming',
    body: `Purge the wand, cold jug, tip just under the surface until the milk's at hand temperature (stretching), then sink a bit to spin it (texturing) until too hot to hold (~60°C).

Tap, swirl, pour. Latte art heart on attempt 30!`,
  },
  {
    key: 'coffee-7',
    title: 'Cold brew',
    body: `100 g coarse grounds to 1 L cold water, fridge for 16 hours, then through a paper filter.

Dilute 1:1 with milk or water. Less acidic, great in summer. Keeps a week in a bottle.

Use a medium-dark roast; light roasts taste thin done this way.`,
  },
  {
    key: 'coffee-8',
    title: 'Water hardness',
    body: `Our tap water is very hard — scale in the machine and a flat, chalky taste in every cup.

Switched to a BWT jug filter and descale every 2 months. Third Wave Water sachets for the pour-over at weekends.

Much better now.`,
  },
  {
    key: 'coffee-9',
    title: 'Café visit — Prufrock',
    body: `Prufrock, Leather Lane: Gesha on V60 at £9 — floral, tea-like, worth it once.

Their espresso was pulled long-ish, 1:2.5. Bought a bag of the Kenyan to try at home.

Staff were friendly and happy to chat about recipes.`,
  },

  // --- cycling ----------------------------------------------------------------
  {
    key: 'cycle-1',
    title: 'Commute route',
    body: `12 km each way via the canal towpath (gravel, slow after rain) or the main road (faster, scary roundabout).

Towpath Mon–Thu, road on Fridays when traffic's lighter. 35 min door to door. Shower at work.

Lights on all year on the towpath; it's dark under the bridges.`,
  },
  {
    key: 'cycle-2',
    title: 'Puncture on Hill Lane',
    body: `Flatted on Hill Lane. Tyre levers, find the cause (a tiny flint), patch or new tube, check inside the tyre with fingers, pump to 80 psi.

Took 25 min with cold hands. Carry 2 tubes now, and consider tubeless.

Check the rim tape too.`,
  },
  {
    key: 'cycle-3',
    title: 'Bike fit',
    body: `Saddle too low → knee pain at the front. Raised 1.5cm using the heel-on-pedal method. Moved the saddle back 5mm.

Shorter stem (90mm) because my lower back ached. Now fine on 60 km rides.

Fit done at the bike shop (£60) — worth every penny.`,
  },
  {
    key: 'cycle-4',
    title: 'Chain care',
    body: `Degrease every 500 km; dry lube in summer, wet lube in winter. Check stretch with the chain checker — replace at 0.5% or the cassette wears too.

Wiped the chain after the soggy Sunday ride; squeak gone.

Log the mileage of each chain.`,
  },
  {
    key: 'cycle-5',
    title: 'Sportive — Dragon Ride',
    body: `150 km, 2,600 m climbing. The Black Mountain climb was brutal, 45 min in the small ring.

Ate every 30 min: rice cakes, bars, a gel on the climbs. Finished in 7:12. Cramp at 120 km — more salt next time.`,
  },
  {
    key: 'cycle-6',
    title: 'Turbo trainer winter plan',
    body: `Zwift 3× a week: Tue intervals (4×8 min at threshold), Thu tempo, Sat long endurance ride.

FTP test every 6 weeks. Started at 210 W, now 232 W. A fan in front is essential.

Cool-down and stretching after every session.`,
  },
  {
    key: 'cycle-7',
    title: 'New brake pads',
    body: `Front brake pads worn to the line. Swapped to new Shimano resin pads, toed in slightly, bedded in with 20 stops.

Rim brakes squeal in the wet — try the Kool-Stop salmon pads next.

Check the pad wear every month in winter; the grit eats them.`,
  },
  {
    key: 'cycle-8',
    title: 'Bikepacking weekend',
    body: `Two days on the South Downs Way, 160 km total. Frame bag, saddle pack, handlebar roll. Wild camped near Devil's Dyke.

Pack: bivvy, quilt, stove, spare tube, chain link, multitool.

Water was the hard part — refill at churches and pubs. Next time: a lighter stove and a proper rain jacket.`,
  },

  // --- Spanish ----------------------------------------------------------------
  {
    key: 'spanish-1',
    title: 'Ser vs estar',
    body: `Ser for permanent-ish identity (soy profesora, es alto), estar for states and location (estoy cansado, está en Madrid).

Tricky: "es aburrido" (boring) vs "está aburrido" (bored). Same with listo: clever vs ready.

Make flashcards with both versions of each adjective.`,
  },
  {
    key: 'spanish-2',
    title: 'Duolingo streak + plan',
    body: `200-day streak but I still can't hold a conversation.

Adding: italki tutor twice a week (Lucía, Tue/Thu 30 min), a Spanish podcast on the commute (Coffee Break Spanish), one Netflix show with Spanish subtitles.

Review after a month.`,
  },
  {
    key: 'spanish-3',
    title: 'Lesson with Lucía — subjunctive',
    body: `Use after expressions of wish, doubt, emotion: quiero que vengas, dudo que sea verdad, me alegra que estés aquí.

Trigger mnemonic "WEIRDO". Homework: 10 sentences with "ojalá".

Lucía says to learn the common triggers as whole phrases rather than rules. Next lesson: the past subjunctive.`,
  },
  {
    key: 'spanish-4',
    title: 'Vocabulary — kitchen',
    body: `la sartén (frying pan), la olla (pot), el horno (oven), hervir (to boil), freír (to fry), picar (to chop), la receta (recipe), el cuchillo (knife).

Anki deck "Cocina" created.

Label things in the kitchen with sticky notes for a week.`,
  },
  {
    key: 'spanish-5',
    title: 'Por vs para',
    body: `Para: destination, purpose, deadline, recipient (para mañana, para ti).

Por: cause, exchange, duration, through (gracias por, por la mañana, paseamos por el parque). Still mixing them up in speech.

Fix: learn set phrases by heart — por favor, por fin, para siempre.`,
  },
  {
    key: 'spanish-6',
    title: 'Listening practice',
    body: `Watched La Casa de Papel ep. 1 with Spanish subs. Understood maybe 50%.

An Argentinian accent in a YouTube video was much harder — "ll" sounds like "sh". Try Dreaming Spanish superbeginner videos for input.

Listening is still my weakest skill.`,
  },
  {
    key: 'spanish-7',
    title: 'Speaking anxiety',
    body: `Froze when the waiter in Valencia replied fast.

Strategy: memorise a few filler phrases ("a ver…", "o sea", "pues"), ask "¿puede repetir más despacio?", and accept mistakes. Lucía says my pronunciation is good; I just need more hours of real conversation.`,
  },
  {
    key: 'spanish-8',
    title: 'DELE B1 exam',
    body: `Registered for the May sitting. Four parts: reading, listening, writing, speaking. Past papers on the Cervantes site.

Weakest: writing formal emails. Target: 2 practice papers a week from March.

Book the speaking mock with Lucía in April. Results take about three months.`,
  },
  {
    key: 'spanish-9',
    title: 'Preterite vs imperfect',
    body: `Preterite: completed actions (ayer fui al cine). Imperfect: background, habits, descriptions (cuando era niño, jugaba al fútbol).

The "movie scene" trick: the imperfect sets the scene, the preterite is the action.

Lucía's test: could I add 'every day' to the sentence? Then it's imperfect.`,
  },

  // --- woodworking ------------------------------------------------------------
  {
    key: 'wood-1',
    title: 'Workbench build',
    body: `Laminated top from construction timber, 1.8 m × 60 cm, 10 cm thick. Legs drawbored mortise and tenon. Quick-release vice on the front left.

Flattened the top with a No. 5 plane and winding sticks — took a whole weekend.`,
  },
  {
    key: 'wood-2',
    title: 'Sharpening routine',
    body: `Diamond plates 300/1000, then a 6000 waterstone, leather strop with green compound.

Honing guide at 25° primary, 30° micro-bevel. Test: shaves arm hair, and takes a clean curl from the end grain of pine.

Quick strop every 20 minutes of planing.`,
  },
  {
    key: 'wood-3',
    title: 'Dovetails practice',
    body: `Tails first. Mark with a 1:6 gauge, saw on the waste side, chop with a 12mm chisel halfway from each face.

Joint #5 was gappy at the baseline — my saw drifted. Practise vertical cuts on scrap, 10 a day.`,
  },
  {
    key: 'wood-4',
    title: 'Oak side table finish',
    body: `Sand to 180, raise the grain with a damp cloth, sand 240. Three coats of Osmo Polyx oil, 8 hours between.

Danish oil for the cutting board? No — food-safe mineral oil and beeswax instead.

Buff with a soft cloth after the last coat.`,
  },
  {
    key: 'wood-5',
    title: 'Tearout on the figured maple',
    body: `Figured maple tearing out badly.

Fixes: plane with the grain, take thinner shavings, close the mouth, card scraper for the worst bits. A freshly honed iron did more than anything else.

Next time choose straighter boards, or use the drum sander for figured stock.`,
  },
  {
    key: 'wood-6',
    title: 'Shop safety',
    body: `Push sticks always on the table saw, riving knife on, no gloves near spinning blades. Dust extraction + a P3 mask for MDF. Ear defenders.

First aid kit on the wall by the door. Tell someone when I'm doing anything risky.`,
  },
  {
    key: 'wood-7',
    title: 'Lumber yard trip',
    body: `Bought 20 board feet of ash (£140) and some reclaimed oak floorboards for the bookshelf.

Let the boards acclimatise in the garage for 2 weeks before milling. Moisture meter: aim under 12%.

The yard will plane boards to thickness for a small fee — worth it.`,
  },
  {
    key: 'wood-8',
    title: 'Bookshelf plan',
    body: `3 shelves, 90 cm wide, 30 cm deep. Housing joints (dados) for the shelves, back panel in 6mm ply in a rebate.

The shelf sag calculator says 22mm ash is fine for books at a 90 cm span.

Finish: hardwax oil.`,
  },
  {
    key: 'wood-9',
    title: 'Cutting board gift',
    body: `End-grain board for Mum from walnut and maple offcuts. Glue-up twice, flattened with a router sled (the thicknesser would destroy it).

Juice groove, chamfered corners, rubber feet. Mineral oil finish, reapplied monthly.

She loved it. Next: one for us.`,
  },
  {
    key: 'wood-10',
    title: 'New plane iron',
    body: `Flattened the back of the new Hock iron on the 300 plate, then polished the first 2cm on the 6000 stone. Took an hour.

Worth it: the smoother now takes see-through shavings. Mark the strop sides so I always use the same one.`,
  },

  // --- astronomy --------------------------------------------------------------
  {
    key: 'astro-1',
    title: 'Telescope choice',
    body: `8-inch Dobsonian (Skywatcher 200P) — the best aperture per pound and simple to use. No tracking, so no good for long exposures, but brilliant visually.

25mm and 10mm eyepieces included; add a 2× Barlow later.

Second-hand ones go for about £250.`,
  },
  {
    key: 'astro-2',
    title: 'Jupiter and Saturn',
    body: `Clear night, good seeing. Jupiter: two belts, the Great Red Spot rotating into view around 22:40, all four Galilean moons.

Saturn's rings wide open, the Cassini division visible at moments. The 10mm eyepiece was best.

Let the scope cool for an hour first.`,
  },
  {
    key: 'astro-3',
    title: 'Collimation',
    body: `Stars looked like comets → collimation off. Used a Cheshire eyepiece: centre spot on the primary, adjust the secondary, then the primary bolts.

Star test on Polaris defocused — concentric rings now.

Check it every session; it shifts when the tube gets bumped in the car.`,
  },
  {
    key: 'astro-4',
    title: 'Messier marathon attempt',
    body: `Got 42 objects before the clouds. Highlights: M13 globular resolved into stars at the edges, M57 Ring Nebula a tiny smoke ring, M81/M82 pair in the same field.

Star-hopping with the Telrad and a paper atlas.

Try again in March.`,
  },
  {
    key: 'astro-5',
    title: 'Astrophotography — first try',
    body: `Phone on the eyepiece with an adapter: the Moon came out great, craters along the terminator.

Then the Orion Nebula with the DSLR on a tripod, 8 s exposures stacked in DeepSkyStacker — dim but there!

Next: a star tracker for longer exposures.`,
  },
  {
    key: 'astro-6',
    title: 'Dark sky site',
    body: `Bortle 3 site, 40 min drive away, in the national park car park.

Bring: red torch, thermos, layers (gets cold fast), camping chair, star charts. Check the clear-sky forecast and moon phase first.

Tell someone where I'm going; no phone signal up there.`,
  },
  {
    key: 'astro-7',
    title: 'Perseids',
    body: `12 Aug, lay on a blanket from 23:00 to 01:30. Counted 61 meteors, a few with trails lasting seconds. Peak after midnight.

No telescope needed — just let the eyes dark-adapt for 20 min.

The Geminids in December are meant to be even better.`,
  },
  {
    key: 'astro-8',
    title: 'Astronomy society talk',
    body: `Talk on exoplanets: transit method (dips in brightness), radial velocity wobble. JWST spectra showing CO2 in an atmosphere.

Could do transit photometry with a small scope + a cooled astro camera!

The speaker recommended the AAVSO exoplanet section for beginners. Next meeting is on variable stars.`,
  },
  {
    key: 'astro-9',
    title: 'ISS pass',
    body: `Spotted the ISS crossing from west to east at 21:14, magnitude −3.5, about 5 minutes overhead.

Heads Up app alerts for visible passes.

It moves fast and steadily, with no blinking lights — easy to tell from a plane. Showed the kids; they waved.`,
  },

  // --- medical appointments ---------------------------------------------------
  {
    key: 'doctor-1',
    title: "GP — cough that won't go",
    body: `Five weeks of dry cough. Dr Patel listened to my chest — clear. Probably post-viral.

Chest X-ray requested to be safe, at the hospital walk-in, no appointment needed. Come back if there's fever, weight loss or blood.

Follow-up booked.`,
  },
  {
    key: 'doctor-2',
    title: 'Blood test results',
    body: `Cholesterol 6.1 (total), LDL 4.0 — a bit high. HbA1c normal, thyroid normal, vitamin D low (28) → 1000 IU daily in winter.

Recheck lipids in 6 months after diet changes.

Family history: Dad had high cholesterol too. Ask about statins only if diet doesn't work.`,
  },
  {
    key: 'doctor-3',
    title: 'Dentist',
    body: `Check-up and scale & polish. One small filling needed on a lower left molar — booked for 3 March, £65.20 (NHS band 2).

Hygienist says use interdental brushes (size 2, red).

Next check-up in 9 months. Floss at night, not in the morning rush.`,
  },
  {
    key: 'doctor-4',
    title: 'Medication list',
    body: `- Sertraline 50 mg, morning
- Vitamin D 1000 IU, winter
- Cetirizine 10 mg as needed (hay fever)
- No known drug allergies. Penicillin OK.

Keep this updated for every appointment form.

Repeat prescription via the NHS app every 2 months; pharmacy on the high street.`,
  },
  {
    key: 'doctor-5',
    title: 'Physio — shoulder',
    body: `Rotator cuff tendinopathy (left). Exercises: external rotation with band 3×15, wall slides, scapular squeezes.

Avoid overhead lifting for 4 weeks. Review on 20 May.

Physio says it comes from too much overhead pressing at the gym. Do the band work daily, 10 minutes.`,
  },
  {
    key: 'doctor-6',
    title: 'Optician',
    body: `Eye test: slight change in the left eye, −1.25 → −1.50. New glasses prescription. Pressure test fine.

Consider daily contacts for sport.

Cost £25 for the test, glasses £120 with the thinner lenses. Next test in two years; sooner if headaches.`,
  },
  {
    key: 'doctor-7',
    title: 'Questions for the consultant',
    body: `Dermatology appointment on Tuesday. Ask: is the mole on my back worth removing anyway? How often should I check it?

Photos every 3 months — same lighting. Bring the list of previous changes.

Take a photo of the mole on the day for comparison.`,
  },
  {
    key: 'doctor-8',
    title: 'Vaccinations & reminders',
    body: `Flu jab at the pharmacy in October. Tetanus booster was 2015 — fine until 2025.

Travel jabs for Japan: none required; Japanese encephalitis only if staying rural — not for us.

Ask the nurse about the shingles vaccine next year. Keep the vaccination card in the passport wallet.`,
  },
  {
    key: 'doctor-9',
    title: 'Cholesterol diet changes',
    body: `After the blood results: oats for breakfast, more oily fish (2× a week), swap butter for olive oil spread, fewer takeaways.

Walk 30 min daily. Target LDL under 3.0 at the recheck.

Porridge every morning is boring — try overnight oats with berries.`,
  },

  // --- moving house -----------------------------------------------------------
  {
    key: 'moving-1',
    title: 'Moving checklist — 8 weeks out',
    body: `- Get 3 quotes from removal firms
- Book the van/removers for 14 June
- Start decluttering room by room (sell/donate/tip)
- Give the landlord notice
- School admission for the new area
- Order boxes, tape, marker pens
- Defrost the freezer 2 days before`,
  },
  {
    key: 'moving-2',
    title: 'Change of address list',
    body: `Bank, credit card, HMRC, DVLA (licence + V5C), GP and dentist (register new ones), employer payroll, insurance (car, contents), pension, TV licence, electoral roll, Amazon.

Royal Mail redirect: 12 months, £55.

Do the bank and DVLA first; the others can wait a week or two.`,
  },
  {
    key: 'moving-3',
    title: 'Removal quotes',
    body: `- AnyVan: £680, no packing
- Smith & Sons: £1,150 with packing service, insured
- Local man with a van: £450, 2 people, no insurance

Went with Smith & Sons — the piano needs specialist handling.

Ask about parking permits for the van on both streets.`,
  },
  {
    key: 'moving-4',
    title: 'Packing tips',
    body: `Label every box with room + contents on two sides. Books in small boxes.

Pack a "first night" box: kettle, mugs, tea, loo roll, phone chargers, bedding, toothbrushes, basic tools. Photograph the back of the TV before unplugging.

Keep screws in labelled bags.`,
  },
  {
    key: 'moving-5',
    title: 'Survey on the new house',
    body: `Level 2 survey: damp in the rear wall (probably blocked air bricks), roof tiles slipped on the north side, electrics need an EICR.

Renegotiated £4,000 off the price using the report.

Surveyor also flagged the boiler as 15 years old.`,
  },
  {
    key: 'moving-6',
    title: 'Utilities setup',
    body: `Meter readings on moving day (photo of each). Gas & electric: Octopus, started 15 June. Water: Severn Trent, new account.

Broadband: order 3 weeks ahead — fibre install on 20 June. Council tax band C, new account.

Set up direct debits in week one.`,
  },
  {
    key: 'moving-7',
    title: 'Decluttering',
    body: `Sold the old sofa on Facebook Marketplace (£80), 6 bags to the charity shop, 3 tip runs.

Rule: if I haven't used it in a year and it's not sentimental, it goes. Kept the kids' artwork — scanned most of it.`,
  },
  {
    key: 'moving-8',
    title: 'First week in the new place',
    body: `Boxes everywhere. Found the first-night box — lifesaver. Met the neighbours at No. 12 (Sue and Ray); bin day is Tuesday, recycling alternate weeks.

Kids like their rooms. Still no broadband till Thursday.

Need curtains for the main bedroom urgently.`,
  },
  {
    key: 'moving-9',
    title: 'Completion delayed',
    body: `Completion delayed by a week because of the chain. Had to rebook the removers (£100 fee) and stay with my sister.

Exhausted. Reminder: it always takes longer than you think.

Got the keys on Friday at 4pm. Pizza on the floor for dinner.`,
  },

  // --- team meetings / project planning --------------------------------------
  {
    key: 'meeting-1',
    title: 'Sprint planning — 4 March',
    body: `Attendees: Ana, Ben, Chidi, me. Capacity 34 points (Ben on leave Thu–Fri).

Committed: search filters (8), export CSV (5), fix flaky login test (3), onboarding emails (8). Risk: design for filters not final — Ana to chase by Tuesday.

Sprint goal agreed.`,
  },
  {
    key: 'meeting-2',
    title: 'Retro — Q1',
    body: `Went well: fewer production incidents, pairing on reviews. Didn't: too many meetings, unclear ownership of the billing bug.

Actions: no-meeting Wednesdays (Chidi), a DRI for every bug ticket (me), shorter standups — 10 min hard stop.

Review the actions at the next retro.`,
  },
  {
    key: 'meeting-3',
    title: '1:1 with Priya',
    body: `She's keen to lead the API redesign. Concern: workload with the on-call rotation.

Agreed: she drafts the RFC, I'll cover two of her on-call shifts. Career: talk about promotion criteria next month.

She seems happier than last month.`,
  },
  {
    key: 'meeting-4',
    title: 'Project kickoff — billing v2',
    body: `Goal: move invoices to the new provider by end of Q3. Scope: subscriptions, proration, tax handling. Out of scope: the mobile app.

Milestones: design doc 15 Apr, beta 1 Jun, cutover 1 Sep. Owner: me. Stakeholders: finance (Rob), support (Kemi).`,
  },
  {
    key: 'meeting-5',
    title: 'Stakeholder update — billing v2',
    body: `Billing v2 is amber: the provider sandbox was down for a week, beta slipping to 15 Jun.

Mitigation: parallel-run invoices for one month. Ask: need a decision from finance on proration rounding by Friday.

Next update in two weeks.`,
  },
  {
    key: 'meeting-6',
    title: 'Standup notes — Tue',
    body: `- Ben: finished CSV export, PR up.
- Chidi: blocked on staging DB access — I'll ping infra.
- Ana: filters design v2 done.
- Me: reviewing the billing RFC.

Demo on Thursday.

Blockers: only Chidi's. Sprint on track; the burndown chart looks healthy so far.`,
  },
  {
    key: 'meeting-7',
    title: 'Decision log',
    body: `- 2024-03-12: use Postgres row-level security instead of app-level checks (Ana, Ben agree)
- 2024-03-20: postpone the mobile redesign to Q4
- 2024-04-02: adopt trunk-based development, feature flags via Unleash

Add the context and alternatives for each one.`,
  },
  {
    key: 'meeting-8',
    title: 'Running better meetings (article)',
    body: `Every meeting needs an agenda sent 24h before and a clear decision or action list at the end. Default to 25 minutes.

If it could be a doc, write the doc. Rotate the note-taker.

Try this with the Thursday sync first.`,
  },
  {
    key: 'meeting-9',
    title: 'Offsite planning',
    body: `Team offsite 12–13 June in Bristol. Agenda: H2 roadmap, tech debt triage, a fun afternoon (escape room).

Budget £150/person. Book the venue by end of April, collect dietary needs.

Escape room: check availability for 8 people; trains from London are about 1h40.`,
  },

  // --- history book notes -----------------------------------------------------
  {
    key: 'history-1',
    title: 'SPQR — Mary Beard',
    body: `Rome's first thousand years. The early kings are mostly myth. Key turning point: 212 CE, Caracalla grants citizenship to all free inhabitants.

Beard is good on ordinary people — graffiti, tavern life. Less on battles.

Good index. Went with the Rest Is History episodes on Caesar.`,
  },
  {
    key: 'history-2',
    title: 'The Guns of August — Tuchman',
    body: `How WWI started: the Schlieffen Plan's rigid timetables, mobilisation as a point of no return, everyone expecting it all to be over by Christmas.

The Marne stopped the German advance. Brilliant on personalities — Joffre's calm, Moltke's nerves.

Tuchman won the Pulitzer for it; Kennedy reportedly gave copies to his cabinet during the Cuban missile crisis.`,
  },
  {
    key: 'history-3',
    title: 'Postwar — Tony Judt',
    body: `Europe 1945–2005. Marshall Plan, the division of Germany, the welfare-state consensus. Long chapter on 1989.

Argues that remembering the Holocaust became the entry ticket to the European project.

Heavy at 900 pages but never dull. The chapter on the Prague Spring is excellent.`,
  },
  {
    key: 'history-4',
    title: 'The Silk Roads — Frankopan',
    body: `Re-centres world history on Central Asia and Persia rather than the West. Trade networks moved religions, plague and ideas.

Chapters on cotton, furs, slaves. Good map at the start — keep referring back to it.

A good companion to the podcast series on the Mongols.`,
  },
  {
    key: 'history-5',
    title: 'Team of Rivals — Goodwin',
    body: `Lincoln brought his political rivals Seward, Chase and Bates into his cabinet. Emotional intelligence as a leadership skill.

Long but gripping on the 1860 convention. Quote: "the better angels of our nature."

Made me want to visit Springfield one day.`,
  },
  {
    key: 'history-6',
    title: 'The Making of the Atomic Bomb — Rhodes',
    body: `From Rutherford and the nucleus to Los Alamos and Hiroshima. Szilard's chain-reaction idea in 1933 while crossing a road in London.

Oppenheimer's management of prima donnas. The Trinity test chapter is unforgettable.

Long, at 800 pages, but the physics explanations are clear even for a non-scientist.`,
  },
  {
    key: 'history-7',
    title: 'Reading list — history',
    body: `- The Rest Is History podcast recommendations
- Dominion (Tom Holland)
- The Anarchy (Dalrymple) — East India Company
- Stalingrad (Beevor)
- 1491 (Mann)
- Empireland (Sathnam Sanghera)
- The Silk Roads sequel (Frankopan)

Ask at the library before buying. Next up: Stalingrad, then Dominion, then whichever is on the shelf.`,
  },
  {
    key: 'history-8',
    title: 'The Anarchy — Dalrymple',
    body: `The East India Company as a private corporation with its own army, conquering a subcontinent. Plassey 1757, Clive's looting.

Parallels to modern corporate power. Dense with Mughal politics but worth it.

The Company's shareholders in London barely noticed what was done in their name.`,
  },
  {
    key: 'history-9',
    title: 'SPQR — second time through',
    body: `Went back to the chapters on the late Republic: Cicero vs Catiline, the Gracchi brothers' land reforms.

Beard's point: the Republic's collapse came from institutions failing, not just from ambitious men.

Her chapter on Augustus is the best short account I know.`,
  },
  {
    key: 'history-10',
    title: 'Stalingrad — Beevor',
    body: `The 1942–43 siege from both sides: Paulus's Sixth Army encircled by Operation Uranus, soldiers' letters, starvation in the pocket.

Grim but gripping. The chapter on the city's fighting in the ruined factories stays with you.

A hard one to put down, despite the subject.`,
  },

  // --- knitting ---------------------------------------------------------------
  {
    key: 'knit-1',
    title: 'First scarf',
    body: `Garter stitch, 4.5mm needles, chunky merino in forest green. Cast on 30.

Tension all over the place at first, evens out by the second skein. Learned the long-tail cast on from a YouTube video.

Gave it to Dad for his birthday.`,
  },
  {
    key: 'knit-2',
    title: 'Reading patterns',
    body: `Abbreviations: k2tog (knit two together, right-leaning decrease), ssk (left-leaning), yo (yarn over, makes a hole), pm (place marker), RS/WS.

Stitch counts in brackets at row ends — check them!

Read the whole pattern before starting. Highlight my size's numbers in yellow.`,
  },
  {
    key: 'knit-3',
    title: 'Sweater swatch',
    body: `Pattern gauge: 22 sts × 30 rows = 10 cm. My swatch: 24 sts — too tight. Went up to 4.5 mm, now 22.

Wash and block the swatch before measuring; it grows.

Measured in three different parts of the swatch and took the average.`,
  },
  {
    key: 'knit-4',
    title: 'Dropped stitch rescue',
    body: `Dropped a stitch 8 rows down in the stocking stitch. Crochet hook, ladder it back up one rung at a time, knit side facing.

Lifeline through a plain row from now on for lace.

Took ten minutes instead of ripping out the whole evening's work.`,
  },
  {
    key: 'knit-5',
    title: 'Yarn stash inventory',
    body: `- 5 skeins DK wool, oatmeal (sweater?)
- 3 balls sock yarn, self-striping
- 2 skeins mohair/silk, dusty pink
- Odds and ends for a scrap blanket

Rule: no new yarn until the sweater is cast on.

Store with lavender bags against moths.`,
  },
  {
    key: 'knit-6',
    title: 'Socks — toe up',
    body: `Magic loop on 2.5mm 80cm circulars. Judy's magic cast on, increase to 64 sts, German short-row heel.

First sock done! Second sock syndrome is real.

The heel took three attempts to get the wraps neat. Next pair: try a fleegle heel, and cast on the second sock straight away.`,
  },
  {
    key: 'knit-7',
    title: 'Blocking',
    body: `Soak in lukewarm water with wool wash for 20 min, squeeze (don't wring), roll in a towel.

Pin to the measurements on foam mats, leave 24h. Lace opens up dramatically.

Use blocking wires on straight edges to keep them straight. Acrylic doesn't block the same way.`,
  },
  {
    key: 'knit-8',
    title: 'Knitting group',
    body: `Thursday knit night at the library café. Margaret showed me continental style — faster purls.

Tip from Ruth: weigh the yarn after one sleeve to know if there's enough for the second.

Next month: Ruth is teaching a class on brioche stitch.`,
  },
  {
    key: 'knit-9',
    title: 'Colourwork hat',
    body: `Fair Isle snowflake hat. Carry the floats loosely — spread the stitches on the right needle before each colour change.

Dominant colour held in the left hand. The puckering eased after blocking.

Pattern from Ravelry, 4mm for the colourwork, 3.5mm for the ribbing.`,
  },

  // --- beekeeping -------------------------------------------------------------
  {
    key: 'bee-1',
    title: 'First inspection of the season',
    body: `Warm day, 16°C. Queen seen (marked blue), eggs and young larvae — laying well.

5 frames of brood, good stores. Added a super. Calm colony, no gloves needed.

Next inspection in 7 days; looking for queen cells from now until July. Note the temperament and the stores every time.`,
  },
  {
    key: 'bee-2',
    title: 'Varroa treatment',
    body: `Mite drop count on the insert: 12/day — above threshold.

Apiguard thymol trays, 2 doses 2 weeks apart, after the honey harvest. Oxalic acid trickle in December when they're broodless.

Keep a record of treatments in the veterinary medicines log, as the law requires.`,
  },
  {
    key: 'bee-3',
    title: 'Swarm cells!',
    body: `Found 6 queen cells on the bottom of the frames.

Did an artificial swarm (Pagden method): old queen moved to a new box on the original site, brood box moved aside. Kept one good cell.

Checked a week later: the new queen emerged.`,
  },
  {
    key: 'bee-4',
    title: 'Honey harvest',
    body: `Took off 2 supers, clearer board overnight. Extracted with the club's spinner: 18 kg!

Filtered through a double sieve, settled 2 days, jarred 40 × 454 g. Labelling rules: name, address, weight, best before.

Sold 20 jars at £7 to neighbours and colleagues.`,
  },
  {
    key: 'bee-5',
    title: 'Feeding for winter',
    body: `Heavy syrup, 2:1 sugar:water, in a rapid feeder through September. Heft the hive — it should have ~20 kg of stores.

Fondant on top in February if it feels light. Mouse guard on in October.

Insulate the crownboard with a slab of polystyrene.`,
  },
  {
    key: 'bee-6',
    title: 'Aggressive colony',
    body: `Hive 2 has become followy and stingy — chased me 30 m.

Possibly queenless, or a newly mated queen with a bad temper. Plan: requeen with a local mated queen from the association.

Wear the veil even in the garden until it's sorted.`,
  },
  {
    key: 'bee-7',
    title: 'Beekeeping course notes',
    body: `Week 3: bee biology. A worker lives 6 weeks in summer, drones only for mating, the queen up to 5 years.

Waggle dance: angle to the sun = direction, duration = distance. Brood cycle: 21 days workers, 24 drones.

Exam (Basic Assessment) in July.`,
  },
  {
    key: 'bee-8',
    title: 'Kit list',
    body: `Smoker + fuel (hessian, cardboard), hive tool, full suit, nitrile gloves, frame grip, spare frames with foundation, queen marking cage.

Notebook for inspection records.

Keep everything in one crate in the car boot, with a bottle of water and a spare veil. Wash the suit after every few inspections.`,
  },
  {
    key: 'bee-9',
    title: 'Asian hornet alert',
    body: `Association email: Asian hornet sighting 10 miles away.

Set up a monitoring trap with a fish/sugar bait. Report sightings through the Asian Hornet Watch app with a photo.

Hornets hover outside the entrance catching returning workers. Entrance reducers make it harder.`,
  },

  // --- dog training -----------------------------------------------------------
  {
    key: 'dog-1',
    title: 'Puppy first week — Biscuit',
    body: `Biscuit (cocker spaniel, 9 weeks) came home Saturday. Crate in the kitchen with a blanket that smells of her litter.

Toilet trips every 2 hours and after naps, meals and play. Two accidents on the rug. Cried the first two nights.`,
  },
  {
    key: 'dog-2',
    title: 'Recall training',
    body: `Long line (10 m) in the field. High-value treats (chicken) only for recall. Whistle: pip-pip-pip = come.

Never call her to something unpleasant. She's reliable about 80% of the time now, except when there are ducks.

Practise daily in short bursts.`,
  },
  {
    key: 'dog-3',
    title: 'Lead pulling',
    body: `Stop-and-wait when she pulls: the lead goes tight, I become a tree. Reward when she's by my left side.

A harness with a front clip helps. Practise in the garden before the street.

It's slow, but she's improving week by week.`,
  },
  {
    key: 'dog-4',
    title: 'Puppy class — week 4',
    body: `Covered: sit, down, wait at the door, leave it (treat in a closed fist, reward when she backs off), settle on a mat.

Trainer says short sessions (5 min) several times a day beat one long one.

Graduation next week.`,
  },
  {
    key: 'dog-5',
    title: 'Vet visit',
    body: `Second vaccinations done, microchip registered, weight 6.2 kg. Worming every month until 6 months.

Discussed neutering — wait until after her first season. Pet insurance: Petplan lifetime, £32/month.

She was brave; treats in the waiting room. Next visit: booster in a year.`,
  },
  {
    key: 'dog-6',
    title: 'Chewing everything',
    body: `She's teething — chewed a table leg and my charger cable.

Frozen carrots, a Kong with frozen yogurt, the swap game (trade the forbidden thing for a toy). Bitter apple spray on the table legs.

Puppy-proof the living room: cables up, shoes away.`,
  },
  {
    key: 'dog-7',
    title: 'Reactivity to other dogs',
    body: `Barks and lunges at bigger dogs when on the lead.

Keep distance (under threshold), play the look-at-that game: she looks at the dog, I click and treat. Avoid the narrow path at rush hour.

Progress is slow but real.`,
  },
  {
    key: 'dog-8',
    title: 'Dog sitter for our holiday',
    body: `Booked Claire (Rover, 5 stars) for 12–19 Aug.

Leave: food portions in bags, vet details, the recall whistle, her blanket. Meet-and-greet walk on the 5th. £35/night.

Claire sends photos daily. Write down the feeding times and the no-sofa rule.`,
  },
  {
    key: 'dog-9',
    title: 'Separation anxiety',
    body: `Whines and scratches at the door when left.

Build up: leave for 30 seconds, return calmly, then 1 min, 2, 5… A Kong when I leave, no big goodbyes. Camera to check — settles after 10 min now.

Practise daily, twice if possible.`,
  },
];

// ---------------------------------------------------------------------------
// The queries.

export const LABELED_QUERIES: LabeledQuery[] = [
  // sourdough
  { query: 'notes about getting my bread to rise more', relevant: ['sourdough-2', 'sourdough-3', 'sourdough-6', 'sourdough-10'] },
  { query: 'recipes for the extra I pour off instead of throwing it away', relevant: ['sourdough-8', 'sourdough-11'] },
  { query: 'starter feeding schedule', relevant: ['sourdough-1', 'sourdough-9'] },
  // vegetable garden
  { query: 'what kept attacking my veg patch and how I fought back', relevant: ['garden-3', 'garden-4', 'garden-10'] },
  { query: "keeping greenery hydrated while I'm on a trip", relevant: ['garden-7', 'plant-7'] },
  // violin
  { query: 'tips for playing more in tune', relevant: ['violin-2', 'violin-3'] },
  { query: 'ways I cope with jitters before a high-stakes moment', relevant: ['interview-7', 'violin-6', 'meditation-2'] },
  // running, cycling
  { query: 'injuries and how I dealt with them when jogging', relevant: ['running-2', 'running-7', 'running-9'] },
  { query: 'food strategy for endurance events', relevant: ['running-5', 'running-6', 'cycle-5'] },
  { query: 'DIY fixes on the two-wheeler', relevant: ['cycle-2', 'cycle-4', 'cycle-7'] },
  // personal finance
  { query: 'bills I got rid of or talked down', relevant: ['budget-3', 'car-6'] },
  { query: 'planning for retirement and growing my nest egg', relevant: ['budget-4', 'budget-9'] },
  // home repairs
  { query: 'places that sprang a leak at home', relevant: ['plumbing-1', 'plumbing-3', 'plumbing-8', 'plumbing-9'] },
  { query: 'where to turn off the flow if something bursts', relevant: ['plumbing-6', 'plumbing-1', 'plumbing-9'] },
  { query: 'getting everything ready before frost and snow', relevant: ['car-7', 'plumbing-9', 'bee-5'] },
  // Japan
  { query: 'advice about the high-speed rail', relevant: ['japan-2', 'japan-9'] },
  { query: 'Japan itinerary and temples', relevant: ['japan-1', 'japan-6'] },
  // machine learning
  { query: 'ways to keep a neural net from memorising', relevant: ['ml-4', 'ml-9'] },
  { query: 'BERT encoder papers', relevant: ['ml-2', 'ml-6'] },
  { query: 'books and papers waiting in my backlog', relevant: ['history-7', 'ml-8'] },
  // curries
  { query: 'making a dish milder when it burns too much', relevant: ['curry-5', 'curry-10'] },
  // birds
  { query: 'identifying species by their calls', relevant: ['bird-4', 'bird-5', 'bird-9'] },
  // toddler
  { query: 'what helped our kid drift off by herself and stay down till dawn', relevant: ['toddler-1', 'toddler-2', 'toddler-3', 'toddler-9'] },
  { query: 'what did I learn about sleep training', relevant: ['toddler-1', 'toddler-2', 'toddler-3', 'toddler-9'] },
  // job interviews
  { query: 'haggling over pay with a prospective employer', relevant: ['interview-6', 'interview-8'] },
  // tax
  { query: 'which documents to pull together for my yearly submission', relevant: ['tax-1', 'tax-2', 'tax-5'] },
  { query: 'unexpected bills from the taxman', relevant: ['tax-3', 'tax-8'] },
  // car
  { query: 'when did I change the oil', relevant: ['car-1', 'car-3'] },
  { query: 'breakdowns and dashboard alerts', relevant: ['car-4', 'car-8'] },
  // meditation
  { query: "trouble drifting off because my head won't quiet down", relevant: ['meditation-8', 'meditation-9'] },
  // photography, astronomy
  { query: 'why my pictures come out fuzzy and how to get them crisp', relevant: ['photo-1', 'photo-4', 'photo-5', 'photo-10'] },
  { query: 'snapping pictures of the heavens', relevant: ['photo-4', 'astro-5'] },
  { query: "faint fuzzies and planets I've hunted down", relevant: ['astro-2', 'astro-4', 'astro-5'] },
  // chess
  { query: "which first moves I've settled on for each side", relevant: ['chess-1', 'chess-2', 'chess-6', 'chess-8'] },
  { query: 'running low on the clock', relevant: ['chess-4', 'chess-9'] },
  { query: 'Caro-Kann games', relevant: ['chess-6', 'chess-7'] },
  // houseplants
  { query: 'problems with my indoor greenery and what caused them', relevant: ['plant-2', 'plant-4', 'plant-5', 'plant-8'] },
  // coffee
  { query: 'my brew has an unpleasant flavour — troubleshooting', relevant: ['coffee-2', 'coffee-3', 'coffee-5', 'coffee-8'] },
  { query: 'espresso grind size', relevant: ['coffee-2', 'coffee-3'] },
  // Spanish
  { query: 'grammar pairs that trip me up', relevant: ['spanish-1', 'spanish-5', 'spanish-9'] },
  { query: 'improving how fluently I chat with locals', relevant: ['spanish-2', 'spanish-7'] },
  // woodworking
  { query: 'getting a razor edge on my hand tools', relevant: ['wood-2', 'wood-10'] },
  { query: 'protective treatment for a completed project', relevant: ['wood-4', 'wood-9'] },
  // medical
  { query: 'what the lab found and my plan to respond', relevant: ['doctor-2', 'doctor-9'] },
  // moving house
  { query: 'organisations to update once we relocate', relevant: ['moving-2', 'moving-6'] },
  { query: 'shifting all our stuff across town', relevant: ['moving-1', 'moving-3', 'moving-4'] },
  // team meetings
  { query: 'who promised to handle which to-dos', relevant: ['meeting-1', 'meeting-2', 'meeting-3', 'meeting-6'] },
  { query: 'progress on the payments platform switch', relevant: ['meeting-4', 'meeting-5'] },
  // history books
  { query: 'books covering the classical Mediterranean empire', relevant: ['history-1', 'history-9'] },
  { query: "what I've read about the two world wars", relevant: ['history-2', 'history-6', 'history-10'] },
  // knitting
  { query: 'getting the finished garment to be the right dimensions', relevant: ['knit-3', 'knit-7'] },
  // beekeeping
  { query: 'readying the colony for the cold season', relevant: ['bee-2', 'bee-5'] },
  // dog
  { query: 'teaching my four-legged friend manners out on strolls', relevant: ['dog-2', 'dog-3', 'dog-7'] },
  { query: 'wrecking furniture or howling when I head out', relevant: ['dog-6', 'dog-9'] },
];

/** How many of `LABELED_QUERIES` share no content word with any of their relevant notes (title + body). */
export function queriesSharingNoWord(): number {
  const byKey = new Map(LABELED_NOTES.map((note) => [note.key, note]));
  let count = 0;
  for (const { query, relevant } of LABELED_QUERIES) {
    const text = relevant.map((key) => {
      const note = byKey.get(key);
      return note === undefined ? '' : `${note.title}\n${note.body}`;
    }).join('\n');
    if (sharedContentWords(query, text).length === 0) count++;
  }
  return count;
}
