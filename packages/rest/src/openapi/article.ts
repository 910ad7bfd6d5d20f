/**
 * openapi/article: "a" or "an" before a noun in the document's generated text ("Create an
 * Author", "a User", "an Item"), by how the word sounds, not how it is spelled: a vowel letter
 * gives "an", a consonant "a", and a short list of exceptions fixes the common words whose first
 * sound is not their first letter (a silent h, a "you"-sounding u or eu, a "w"-sounding o).
 * Type names are identifiers, so a name with `::` (`blog::Post`) is read by its first letter,
 * and an all-capitals name (`URL`, `FAQ`) as letters spelled out.
 */

/** Words (by lower-case prefix) that begin with a vowel sound despite a consonant letter. */
const AN_PREFIXES = ['hour', 'honest', 'honor', 'honour', 'heir'];
/** Words (by lower-case prefix) that begin with a consonant sound despite a vowel letter. */
const A_PREFIXES = [
  'uni',
  'use',
  'usa',
  'usu',
  'uti',
  'ura',
  'uri',
  'uro',
  'eu',
  'ewe',
  'one',
  'once',
  'ouija',
];
/** Letters whose spoken name begins with a vowel sound (an "F", an "X", an "S"). */
const VOWEL_SOUND_LETTERS = new Set('aefhilmnorsx');

/**
 * The indefinite article for `word`.
 *
 * @example
 * article('Author'); // "an"
 * article('User'); // "a"
 * article('hour'); // "an"
 */
export function article(word: string): 'a' | 'an' {
  const lower = word.toLowerCase();
  const first = lower[0];
  if (first === undefined) return 'a';
  // An acronym is spelled out: an "SMS", a "URL".
  const letters = word.split('::', 1)[0] ?? word;
  if (letters.length > 1 && /^[A-Z][A-Z0-9]*$/.test(letters)) {
    return VOWEL_SOUND_LETTERS.has(first) ? 'an' : 'a';
  }
  if (AN_PREFIXES.some((p) => lower.startsWith(p))) return 'an';
  if (A_PREFIXES.some((p) => lower.startsWith(p))) return 'a';
  return 'aeiou'.includes(first) ? 'an' : 'a';
}

/** `word` with its indefinite article: `withArticle('Item')` → `"an Item"`. */
export function withArticle(word: string): string {
  return `${article(word)} ${word}`;
}
