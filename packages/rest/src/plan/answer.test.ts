import { buildSchema } from '@svc/core';
import { restModel, type Shape } from '../model';
import { answerBody, isEmptyResult } from './answer';

const model = restModel(
  buildSchema(`module default {
    type User { required name: str; best: User { annotation rest::expand := 'true'; } }
    type Post { title: str; author: User { annotation rest::expand := 'true'; } }
    type Comment { text: str; post: Post { annotation rest::expand := 'true'; } multi posts: Post { annotation rest::expand := 'true'; } }
    type Tag { label: str; }
  }`),
);
const shape = (route: string): Shape => (model.byRoute.get(route) as { shape: Shape }).shape;

test('without a single expanded link the text is not parsed: one object is the array without brackets', () => {
  const text = '[{"id" : "a", "label" : "x"}]';
  expect(answerBody({ answer: 'object', shape: shape('Tag') }, text)).toBe(
    '{"id" : "a", "label" : "x"}',
  );
  expect(answerBody({ answer: 'list', shape: shape('Tag') }, text)).toBe(text);
  expect(answerBody({ answer: 'object', shape: shape('Tag') }, '[]')).toBeNull();
  expect(answerBody({ answer: 'list', shape: shape('Tag') }, '[]')).toBe('[]');
});

test('a single expanded link, an array of one object from the engine, becomes the object, at every depth', () => {
  const row = {
    id: 'c',
    text: 't',
    post: [{ id: 'p', title: 'x', author: [{ id: 'u', name: 'n', best: 'u2' }] }],
    posts: [{ id: 'p', title: 'x', author: null }],
  };
  expect(
    JSON.parse(
      answerBody({ answer: 'created', shape: shape('Comment') }, JSON.stringify([row])) ?? '',
    ),
  ).toEqual({
    id: 'c',
    text: 't',
    post: { id: 'p', title: 'x', author: { id: 'u', name: 'n', best: 'u2' } },
    posts: [{ id: 'p', title: 'x', author: null }],
  });
  expect(
    JSON.parse(
      answerBody({ answer: 'list', shape: shape('Post') }, '[{"id":"p","author":null}]') ?? '',
    ),
  ).toEqual([{ id: 'p', author: null }]);
});

// Issue 26, 7: a stored json value parsed from a string may nest deeper than JSON.stringify
// writes; re-writing a row around it answered 500.
test('a row holding JSON deeper than JSON.stringify writes is written again whole', () => {
  const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
  const text = `[{"id":"p","title":${deep},"author":[{"id":"u","name":"n","best":null}]}]`;
  expect(answerBody({ answer: 'object', shape: shape('Post') }, text)).toBe(
    `{"id":"p","title":${deep},"author":{"id":"u","name":"n","best":null}}`,
  );
  expect(answerBody({ answer: 'list', shape: shape('Post') }, text)).toBe(
    `[{"id":"p","title":${deep},"author":{"id":"u","name":"n","best":null}}]`,
  );
});

test('isEmptyResult', () => {
  expect(isEmptyResult('[]')).toBe(true);
  expect(isEmptyResult(' [ ] ')).toBe(true);
  expect(isEmptyResult('[{}]')).toBe(false);
});
