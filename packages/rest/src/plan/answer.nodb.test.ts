import { answerBody, isEmptyResult } from './answer';

test('the text is not parsed: a list is the text, one object is the array without brackets', () => {
  const text = '[{"id" : "a", "label" : "x"}]';
  expect(answerBody({ answer: 'object' }, text)).toBe('{"id" : "a", "label" : "x"}');
  expect(answerBody({ answer: 'list' }, text)).toBe(text);
  expect(answerBody({ answer: 'object' }, '[]')).toBeNull();
  expect(answerBody({ answer: 'list' }, '[]')).toBe('[]');
});

test('single expanded links come from the engine as objects (compiled with singleLinks: object) and pass as they are', () => {
  const row = '{"id":"c","post":{"id":"p","author":null},"posts":[{"id":"p","author":{"id":"u"}}]}';
  expect(answerBody({ answer: 'created' }, `[${row}]`)).toBe(row);
  expect(answerBody({ answer: 'list' }, `[${row}, ${row}]`)).toBe(`[${row}, ${row}]`);
});

// Issue 26, 7: a stored json value parsed from a string may nest deeper than JSON.stringify
// writes; nothing here walks it.
test('a row holding JSON deeper than JSON.stringify writes passes whole', () => {
  const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
  const text = `[{"id":"p","title":${deep},"author":{"id":"u","name":"n","best":null}}]`;
  expect(answerBody({ answer: 'object' }, text)).toBe(
    `{"id":"p","title":${deep},"author":{"id":"u","name":"n","best":null}}`,
  );
  expect(answerBody({ answer: 'list' }, text)).toBe(text);
});

test('isEmptyResult', () => {
  expect(isEmptyResult('[]')).toBe(true);
  expect(isEmptyResult(' [ ] ')).toBe(true);
  expect(isEmptyResult('[{}]')).toBe(false);
});
