import { normaliseTerm } from './terms.js';

/**
 * Stop words: the function words of a language, which occur in nearly every
 * note written in it and say nothing of what a query is about. The index
 * holds them like any word, so a quoted phrase (`"how does"`, `"to be or not
 * to be"`) finds them where they stand; a query leaves them out of what
 * ranks a note (query-syntax.ts): `how does RSA encryption work` ranks by
 * `rsa`, `encryption` and `work` alone, and a cover letter holding "how",
 * "does" and "work" no longer outranks the note on RSA. A query made of
 * stop words alone (`the who`) is searched for them as ordinary words.
 *
 * The lists are compact: the commonest function words of each language,
 * taken from the Snowball project's stop word lists (BSD licence;
 * snowballstem.org) where it has one, trimmed to articles, pronouns,
 * prepositions, conjunctions and auxiliaries, and hand-written for Japanese,
 * Chinese, Korean, Thai and Hindi (particles and function words). The
 * `stopword` npm package was looked at: its lists are longer (621 German
 * words), hold content words (年, 月 and 日 for Chinese, 구토하다 "to vomit"
 * for Korean), and it is 1.6 MB unpacked. Words that are ordinary English
 * words as well are left out of the other languages' lists, since a list is
 * matched whatever the language of the query: German `die`, `war`, `hat`,
 * `bin`, `man`, `will`, `für` and `über` (folded to `fur` and `uber`); Dutch
 * `door`, `want`, `over`, `men`, `toe`, `dan`; Spanish `sin`, `era`, `hay`,
 * `solo`; French `son`, `plus`; Italian `come`, `dal`, `lei`; Scandinavian
 * `men`, `var`, `sin`; Indonesian `dan`, `ada`.
 */
const LISTS: Readonly<Record<string, string>> = {
  en:
    'a about after again all also am an and any are as at be because been before being between both but by can could did do does ' +
    'doing during each few for from had has have having he her here hers herself him himself his how i if in into is it its itself ' +
    'just me more most my myself no nor not now of on once only or other our ours ourselves own same she should so some such than ' +
    'that the their theirs them themselves then there these they this those through to too until very was we were what when where ' +
    'which while who whom why will with would you your yours yourself yourselves',
  de:
    'aber alle allem allen aller alles als am an auch auf aus bei bis bist da damit dann das dass dein deine dem den denn der des ' +
    'dich dir doch dort du durch ein eine einem einen einer eines er es etwas euch euer gegen habe haben hatte ich ihm ihn ihnen ihr ' +
    'ihre im in ist jede jedem jeden jeder jedes jetzt kann kein keine mein meine mich mir mit muss nach nicht nichts noch nun nur ' +
    'ob oder ohne sehr sein seine sich sie sind so sondern um und uns unser unter vom von vor wann warum was weil welche wenn wer ' +
    'wie wieder wir wird wo wurde zu zum zur zwischen',
  fr:
    'au aux avec ce ces cette dans de des du elle elles en est et eux il ils je la le les leur leurs lui ma mais me même mes moi ' +
    'mon ne nos notre nous on ont ou où par pas pour qu que qui sa se ses si sont sur ta te tes toi ton tu un une vos votre vous y ' +
    'été être l',
  es:
    'a al algo como con de del el ella ellas ellos en entre es esa ese eso esta este esto estos fue ha la las le les lo los más me ' +
    'mi mis muy nada ni no nos o para pero por porque que se sea ser si sobre su sus también te tiene todo tu un una uno unos y ya yo',
  pt:
    'a ao aos as com como da das de do dos e ela ele eles em entre essa esse esta este eu foi isso isto já mais mas me meu minha ' +
    'muito na não nas no nos o os ou para pela pelo por quando que se sem seu sua também te tem um uma você',
  it:
    'a ad al alla alle anche che chi ci con da dalla dei del della di e ed gli ha hanno i il in io la le li lo loro lui ma mi mio ' +
    'ne nel nella noi non o per perché più quella quello questa questo se si sono su sua suo tra tu un una uno voi',
  nl:
    'aan al als bij dat de den der deze dit en er een hem het hier hij hoe hun ik in is je kan maar me met mijn na naar niet nog nu ' +
    'of om ons ook op te tot u uit van voor wat we wel wie wij worden zal ze zich zij zijn zo',
  // Swedish, Norwegian and Danish.
  sv_no_da:
    'och att det som en ett på är av för med till den har de inte om jag hon han vi ni kan så från eller när sig ska skulle ' +
    'og et er ikke jeg hun dere fra når seg skal vil ble blev af ved hvad hvor hva',
  pl: 'i w z na do nie to jest że się o a jak ale co po od za dla są czy jego jej tak tylko już lub oraz przez przy bo ten ta te być był',
  tr: 've bir bu da de ile için mi ne o çok daha gibi kadar ama veya ya her şu olan olarak sonra',
  id: 'yang di ke dari ini itu untuk dengan pada adalah akan tidak juga atau dalam oleh karena saya kami kita mereka sudah bisa',
  ru:
    'и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только её мне было вот от меня ещё нет о из ' +
    'ему когда уже или ни быть был до вам там они где есть для мы их чем была без под будет кто этот это эти при об после над через про',
  uk: 'і й та в у на з до що як це не але від для по за він вона вони ми ви я ти його її їх бо чи же ж або тому також',
  el: 'και το η ο τα των την του της να σε με για από που στο στη στην οι θα δεν είναι αυτό ένα μια',
  ar: 'في من على إلى عن مع هذا هذه ذلك التي الذي أن إن أو كان ما لا ثم قد كل بين',
  he: 'של את על עם זה הוא היא לא גם או כי אם אבל',
  hi: 'है का की के में और को से एक यह था पर ने भी हैं वह कि जो तो ही या',
  th: 'ที่ และ ของ ใน เป็น การ ได้ ให้ มี ไม่ ว่า จะ กับ แต่ หรือ นี้ ก็',
  // Japanese: particles and the auxiliaries the segmenter cuts off (して is し / て).
  ja: 'の を は が に で と も へ や から まで より か な だ です ます て た し する',
  // Chinese function characters standing alone (as part of a longer word, such as 目的, they are ordinary), simplified and traditional.
  zh: '的 了 和 是 在 也 与 與 及 之 就 都 而 或 把 被 这 那 這 着 著 个 個 吗 嗎 呢 吧',
  // Korean: conjunctions, bound nouns and the particles a Latin word leaves standing alone (`Obsidian에서`: korean.ts).
  ko: '및 또는 그리고 그러나 하지만 그래서 또한 등 수 것 이 그 저 때 더 중 위해 통해 대한 위한 있는 있다 에서 을 를 은 는 가 의 에 로 으로 와 과 도',
};

/** Every language's stop words, in the index's form (`normaliseTerm`: lower-cased and folded, as a query's words are). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  Object.values(LISTS)
    .flatMap((list) => list.split(' '))
    .map((word) => normaliseTerm(word))
    .filter((word): word is string => word !== null),
);

/** The languages with a list, and their words as written: for tests. */
export const STOP_WORD_LISTS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(Object.entries(LISTS).map(([language, list]) => [language, list.split(' ')]));

/** Whether an index word (`normaliseTerm`'s form) is a stop word of some language. */
export function isStopWord(term: string): boolean {
  return STOP_WORDS.has(term);
}
