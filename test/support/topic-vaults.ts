import { createRng } from './random.js';

/**
 * Vaults of known topics, for measuring what a similarity score means
 * (issue 33): every note belongs to one topic, so a result is related
 * exactly when it shares the topic of its query or note. Each note is a
 * title of its topic and three sentences drawn from its topic's bank.
 */
export interface Topic {
  name: string;
  titles: readonly string[];
  sentences: readonly string[];
  /** Questions a person would ask about the topic, for semantic_search. */
  queries: readonly string[];
}

/** One subject (gardening), six topics within it: every note shares vocabulary and style with every other. */
export const ONE_SUBJECT: readonly Topic[] = [
  {
    name: 'tomatoes',
    titles: ['Watering the tomatoes', 'Staking tomato vines', 'Tomato blossom end rot', 'Cherry tomatoes this year', 'Ripening tomatoes indoors', 'Tomato seedlings'],
    sentences: [
      'The tomato plants need deep watering twice a week once the fruit sets.',
      'Blossom end rot on the tomatoes comes from uneven watering and too little calcium.',
      'I tied the tomato vines to tall stakes with soft cloth strips.',
      'Pinch the suckers between the main stem and the branches of indeterminate tomatoes.',
      'Green tomatoes picked before frost ripen on the windowsill in a paper bag.',
      'The cherry tomatoes split after the heavy rain last week.',
      'Tomatoes want full sun and at least eight hours of light a day.',
      'Mulch around the tomato plants keeps the soil moisture even.',
    ],
    queries: ['why are my tomatoes cracking and rotting at the bottom', 'how to support tall tomato plants'],
  },
  {
    name: 'compost',
    titles: ['Starting a compost heap', 'Turning the compost', 'Compost smells bad', 'Worm bin', 'Browns and greens', 'Leaf mould'],
    sentences: [
      'A compost heap needs a mix of brown carbon material and green nitrogen material.',
      'Turn the compost pile every two weeks so air reaches the middle.',
      'A compost heap that smells of ammonia has too many kitchen scraps and grass clippings.',
      'The worm bin turns vegetable peelings into rich castings in a couple of months.',
      'Shredded cardboard and dry leaves are good browns for the compost.',
      'Finished compost is dark, crumbly and smells like forest soil.',
      'Autumn leaves left in a wire cage rot down into leaf mould after a year.',
      'Keep the compost as damp as a wrung out sponge.',
    ],
    queries: ['what should I put in my compost pile', 'my compost heap stinks, what went wrong'],
  },
  {
    name: 'roses',
    titles: ['Pruning the roses', 'Black spot on roses', 'Climbing rose on the fence', 'Deadheading roses', 'Planting bare root roses', 'Rose feeding'],
    sentences: [
      'Prune the roses in late winter, cutting just above an outward facing bud.',
      'Black spot on the rose leaves spreads in damp weather; pick off the spotted leaves.',
      'The climbing rose is trained along horizontal wires on the fence to flower more.',
      'Deadheading the spent rose blooms keeps new flowers coming all summer.',
      'Soak bare root roses in a bucket of water for an hour before planting.',
      'Roses are hungry plants and like a rose feed in spring and again in June.',
      'Remove dead, diseased and crossing rose canes first when pruning.',
      'Aphids cluster on the soft rose buds early in the season.',
    ],
    queries: ['when and how to cut back rose bushes', 'spots on rose leaves'],
  },
  {
    name: 'lawn',
    titles: ['Mowing height', 'Moss in the lawn', 'Reseeding bare patches', 'Scarifying the lawn', 'Lawn in a drought', 'Edging the grass'],
    sentences: [
      'Mow the lawn no shorter than five centimetres in summer so the grass stays green.',
      'Moss in the lawn means shade, poor drainage or compacted soil.',
      'Rake the bare patches of lawn, scatter grass seed and keep it moist until it sprouts.',
      'Scarifying in autumn pulls the thatch and dead grass out of the lawn.',
      'A brown lawn in a drought is only dormant and recovers after rain.',
      'Spiking the lawn with a fork improves drainage on heavy clay.',
      'A half moon edger keeps the lawn edges crisp along the borders.',
      'Feed the grass with a high nitrogen lawn fertiliser in spring.',
    ],
    queries: ['how to fix a patchy lawn', 'how short should I cut the grass'],
  },
  {
    name: 'seeds',
    titles: ['Sowing seeds indoors', 'Leggy seedlings', 'Hardening off', 'Saving seeds', 'Seed trays and compost', 'Germination temperatures'],
    sentences: [
      'Sow the seeds indoors six weeks before the last frost date.',
      'Leggy seedlings stretch toward the light because the windowsill is too dim.',
      'Harden off the seedlings by putting them outside a little longer every day for a week.',
      'Dry the saved seeds on paper and store them in labelled envelopes in a cool place.',
      'Fill the seed trays with fine seed compost and water them from below.',
      'Most seeds germinate fastest on a heat mat at around twenty degrees.',
      'Prick out the seedlings into their own pots once they have true leaves.',
      'Damping off kills seedlings when the compost stays too wet and airless.',
    ],
    queries: ['my seedlings are tall and floppy', 'starting plants from seed before spring'],
  },
  {
    name: 'pests',
    titles: ['Slugs on the hostas', 'Aphids everywhere', 'Netting the brassicas', 'Vine weevils', 'Encouraging ladybirds', 'Mice in the peas'],
    sentences: [
      'Slugs came out after the rain and ate the hostas down to the stems.',
      'A beer trap by the lettuce caught dozens of slugs overnight.',
      'Aphids on the broad beans can be washed off with a jet of water.',
      'Fine netting over the cabbages keeps the cabbage white butterflies from laying eggs.',
      'Vine weevil grubs eat the roots of plants in pots; nematodes control them.',
      'Ladybirds and their larvae eat hundreds of aphids a day.',
      'Mice dug up the pea seeds, so I started the peas in gutters in the greenhouse.',
      'Pigeons strip the kale unless it is netted.',
    ],
    queries: ['something is eating holes in my plants at night', 'natural ways to get rid of greenfly'],
  },
];

/** Many subjects, far apart. */
export const MANY_SUBJECTS: readonly Topic[] = [
  {
    name: 'astronomy',
    titles: ['Watching Jupiter', 'The Perseid meteor shower', 'Choosing a telescope', 'Finding the Andromeda galaxy', 'Lunar eclipse notes', 'Dark sky site'],
    sentences: [
      'Through the telescope the four moons of Jupiter lined up beside the planet.',
      'The Perseid meteor shower peaks in mid August, best after midnight.',
      'A reflector telescope with a wide aperture gathers the most light for the money.',
      'The Andromeda galaxy is a faint smudge below Cassiopeia on autumn nights.',
      'During the lunar eclipse the moon turned a deep copper red.',
      'Light pollution from the town washes out the Milky Way.',
      'Saturn rings were tilted wide open this year.',
      'Star charts show the constellations visible each month.',
    ],
    queries: ['what can I see in the night sky with a small telescope', 'planets and stars to observe'],
  },
  {
    name: 'finance',
    titles: ['Monthly budget', 'Emergency fund', 'Index funds', 'Paying off the credit card', 'Pension contributions', 'Mortgage overpayment'],
    sentences: [
      'The monthly budget puts rent, groceries and transport first, then savings.',
      'An emergency fund should cover three to six months of expenses.',
      'Low cost index funds track the whole market and charge tiny fees.',
      'The credit card interest rate is higher than anything savings could earn.',
      'Raising pension contributions by one percent each year barely dents take home pay.',
      'Overpaying the mortgage a little each month shortens the loan by years.',
      'Compound interest makes early saving worth far more than late saving.',
      'Track every expense for a month to see where the money goes.',
    ],
    queries: ['how to save money and invest for retirement', 'getting out of debt'],
  },
  {
    name: 'football',
    titles: ['Saturday match report', 'Transfer window', 'Penalty shootout', 'Training drills', 'League table', 'New striker'],
    sentences: [
      'The home team won two nil with a header from a corner in the second half.',
      'The club signed a new striker on the last day of the transfer window.',
      'The cup final went to a penalty shootout after a goalless draw.',
      'Passing drills in small squares sharpen first touch at training.',
      'After the win the team climbed to third in the league table.',
      'The referee showed a red card for a late tackle.',
      'The goalkeeper saved a penalty in stoppage time.',
      'The manager switched to a back three at half time.',
    ],
    queries: ['who scored in the game and what was the result', 'soccer team tactics'],
  },
  {
    name: 'programming',
    titles: ['Debugging the parser', 'Unit tests for the API', 'Refactoring the database layer', 'Git branching', 'Memory leak hunt', 'Code review notes'],
    sentences: [
      'The parser crashed on an empty input, so I added a check for it.',
      'Unit tests for the API endpoints run on every commit.',
      'The database layer was refactored to use prepared statements.',
      'Each feature gets its own git branch, merged after review.',
      'A heap snapshot showed the memory leak came from an event listener never removed.',
      'The code review asked for clearer function names and fewer globals.',
      'The compiler warned about an unused variable in the loop.',
      'Profiling showed most time went to string concatenation.',
    ],
    queries: ['fixing bugs in my software', 'how to test code before deploying'],
  },
  {
    name: 'baking',
    titles: ['Sourdough starter', 'Chocolate cake', 'Shaping baguettes', 'Shortcrust pastry', 'Proving dough', 'Oven temperatures'],
    sentences: [
      'Feed the sourdough starter with equal weights of flour and water every day.',
      'The chocolate cake needs cocoa, melted butter and a pinch of espresso.',
      'Shape the baguettes with tight seams and score them before baking.',
      'Keep the butter cold when rubbing it into the flour for shortcrust pastry.',
      'Let the dough prove until it has doubled in size.',
      'Preheat the oven to two hundred and twenty degrees for bread.',
      'A crumb full of open holes means a well fermented loaf.',
      'Cool the cake on a wire rack before icing it.',
    ],
    queries: ['recipe for homemade bread', 'how to bake a cake'],
  },
  {
    name: 'health',
    titles: ['Blood pressure readings', 'Physiotherapy for the knee', 'Sleep diary', 'Flu vaccine', 'Running injury', 'Allergy season'],
    sentences: [
      'My blood pressure readings were high in the morning and normal by evening.',
      'The physiotherapist gave me exercises to strengthen the knee after surgery.',
      'The sleep diary shows I wake at three every night after coffee in the afternoon.',
      'The pharmacy offers the flu vaccine every autumn.',
      'Shin splints from running too far too soon; rest and ice helped.',
      'Hay fever is worst in June when the grass pollen count is high.',
      'The doctor asked for a blood test to check iron levels.',
      'Stretching after exercise eases stiff muscles.',
    ],
    queries: ['doctor appointment and symptoms', 'recovering from an injury'],
  },
];

/** Four of the many subjects in English and the same four in Russian, a script the model barely reads. */
export const TWO_LANGUAGES: readonly Topic[] = [
  ...MANY_SUBJECTS.slice(0, 4),
  {
    name: 'astronomy-ru',
    titles: ['Наблюдение Юпитера', 'Метеорный поток Персеиды', 'Выбор телескопа', 'Галактика Андромеды', 'Лунное затмение', 'Тёмное небо'],
    sentences: [
      'В телескоп были видны четыре спутника Юпитера рядом с планетой.',
      'Метеорный поток Персеиды достигает максимума в середине августа.',
      'Телескоп-рефлектор с большой апертурой собирает больше всего света.',
      'Галактика Андромеды видна как слабое пятно под Кассиопеей осенью.',
      'Во время лунного затмения Луна стала тёмно-медной.',
      'Городская засветка скрывает Млечный Путь.',
      'Кольца Сатурна в этом году хорошо раскрыты.',
      'Звёздные карты показывают созвездия каждого месяца.',
    ],
    queries: [],
  },
  {
    name: 'finance-ru',
    titles: ['Месячный бюджет', 'Резервный фонд', 'Индексные фонды', 'Кредитная карта', 'Пенсионные взносы', 'Досрочное погашение ипотеки'],
    sentences: [
      'В месячном бюджете сначала аренда, продукты и транспорт, потом сбережения.',
      'Резервный фонд должен покрывать расходы за три–шесть месяцев.',
      'Недорогие индексные фонды следуют за всем рынком и берут малые комиссии.',
      'Процент по кредитной карте выше любого дохода от вкладов.',
      'Повышение пенсионных взносов на один процент почти не заметно в зарплате.',
      'Небольшие досрочные платежи по ипотеке сокращают срок кредита на годы.',
      'Сложный процент делает ранние сбережения гораздо ценнее поздних.',
      'Записывайте каждый расход в течение месяца.',
    ],
    queries: [],
  },
  {
    name: 'football-ru',
    titles: ['Отчёт о субботнем матче', 'Трансферное окно', 'Серия пенальти', 'Тренировочные упражнения', 'Турнирная таблица', 'Новый нападающий'],
    sentences: [
      'Хозяева выиграли два ноль после удара головой с углового во втором тайме.',
      'Клуб подписал нового нападающего в последний день трансферного окна.',
      'Финал кубка дошёл до серии пенальти после нулевой ничьей.',
      'Упражнения на пас в малых квадратах улучшают первое касание.',
      'После победы команда поднялась на третье место в таблице.',
      'Судья показал красную карточку за грубый подкат.',
      'Вратарь отбил пенальти в добавленное время.',
      'Тренер перешёл на схему с тремя защитниками в перерыве.',
    ],
    queries: [],
  },
  {
    name: 'programming-ru',
    titles: ['Отладка парсера', 'Модульные тесты API', 'Рефакторинг слоя базы данных', 'Ветки в git', 'Поиск утечки памяти', 'Заметки о ревью кода'],
    sentences: [
      'Парсер падал на пустом вводе, поэтому я добавил проверку.',
      'Модульные тесты для API запускаются при каждом коммите.',
      'Слой базы данных переписан на подготовленные запросы.',
      'Каждая функция разрабатывается в своей ветке git и сливается после ревью.',
      'Снимок кучи показал, что утечка памяти шла от неснятого обработчика событий.',
      'На ревью попросили более понятные имена функций и меньше глобальных переменных.',
      'Компилятор предупредил о неиспользуемой переменной в цикле.',
      'Профилирование показало, что больше всего времени уходит на склейку строк.',
    ],
    queries: [],
  },
];

/** The vault's files (path → text) and each note's topic, by path without `.md`. */
export function topicVault(topics: readonly Topic[], seed: number): { files: Record<string, string>; topicOf: Map<string, string> } {
  const random = createRng(seed);
  const files: Record<string, string> = {};
  const topicOf = new Map<string, string>();
  for (const topic of topics) {
    for (const title of topic.titles) {
      const bank = [...topic.sentences];
      const picked: string[] = [];
      for (let i = 0; i < 3; i++) picked.push(bank.splice(Math.floor(random() * bank.length), 1)[0] as string);
      const rel = `${topic.name}/${title}`;
      files[`${rel}.md`] = `${picked.join(' ')}\n`;
      topicOf.set(rel, topic.name);
    }
  }
  return { files, topicOf };
}
