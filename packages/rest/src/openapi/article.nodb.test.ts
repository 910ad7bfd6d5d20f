import { article, withArticle } from './article';

describe('article: by the first sound, not the first letter', () => {
  test.each([
    ['Author', 'an'],
    ['Item', 'an'],
    ['Order', 'an'],
    ['Event', 'an'],
    ['Account', 'an'],
    ['Book', 'a'],
    ['Post', 'a'],
    ['blog::Post', 'a'],
    ['hour', 'an'],
    ['HourlyRate', 'an'],
    ['Honor', 'an'],
    ['House', 'a'],
    ['User', 'a'],
    ['Unique', 'a'],
    ['Unit', 'a'],
    ['Umbrella', 'an'],
    ['Update', 'an'],
    ['European', 'a'],
    ['OneTimeCode', 'a'],
    ['Owner', 'an'],
    ['URL', 'a'],
    ['SMS', 'an'],
    ['FAQ', 'an'],
    ['API', 'an'],
    ['', 'a'],
  ])('%j takes %j', (word, expected) => {
    expect(article(word)).toBe(expected);
  });

  test('withArticle puts it before the word', () => {
    expect(withArticle('Author')).toBe('an Author');
    expect(withArticle('User')).toBe('a User');
  });
});
