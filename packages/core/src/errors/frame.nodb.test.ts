/**
 * The terminal form of an error (frame.ts), pinned as golden text: the header, the file, line
 * and column, the code frame with its caret under the span, the hint, and the count of a report
 * with several errors.
 */
import { MAX_SHOWN_ERRORS, formatErrorReport } from './frame';
import { InvalidReferenceError, SchemaSyntaxError } from './query-errors';
import { SvcError } from './svc-error';

const TAGS = ['type Tag {', '  required name: str;', '}', 'type Post { multi tags: Tg; }'].join(
  '\n',
);
const read = (file: string | undefined) => (file === 'dbschema/tags.esdl' ? TAGS : undefined);

describe('formatErrorReport', () => {
  test('one error: file:line:column, the line, a caret under the span, the hint', () => {
    const err = new InvalidReferenceError("type 'default::Tg' does not exist", {
      position: { file: 'dbschema/tags.esdl', line: 4, column: 25, endLine: 4, endColumn: 27 },
      hint: "did you mean 'default::Tag'?",
    });
    expect(formatErrorReport(err, read)).toBe(
      [
        "error: InvalidReferenceError: type 'default::Tg' does not exist",
        '  ┌─ dbschema/tags.esdl:4:25',
        '  │',
        '4 │ type Post { multi tags: Tg; }',
        '  │                         ^^',
        '  │',
        "  = hint: did you mean 'default::Tag'?",
      ].join('\n'),
    );
  });

  test('without an end, the caret spans the word at the column; tabs keep it aligned', () => {
    const text = 'type A {\n\tname: strr;\n}';
    const err = new SchemaSyntaxError('Unexpected name', { position: { line: 2, column: 8 } });
    expect(formatErrorReport(err, () => text)).toBe(
      [
        'error: SchemaSyntaxError: Unexpected name',
        '  ┌─ <schema>:2:8',
        '  │',
        '2 │     name: strr;',
        '  │           ^^^^',
      ].join('\n'),
    );
  });

  test('a span over several lines is underlined to the end of its first line', () => {
    const text = 'x\n  type A {\n  }';
    const err = new InvalidReferenceError('bad', {
      position: { line: 2, column: 3, endLine: 3, endColumn: 4 },
    });
    expect(
      formatErrorReport(err, () => text)
        .split('\n')
        .slice(3),
    ).toEqual(['2 │   type A {', '  │   ^^^^^^^^']);
  });

  test('the gutter is as wide as the line number', () => {
    const text = `${'\n'.repeat(11)}type A { a: B; }`;
    const err = new InvalidReferenceError('x', {
      position: { line: 12, column: 13, endLine: 12, endColumn: 14 },
    });
    expect(
      formatErrorReport(err, () => text)
        .split('\n')
        .slice(1),
    ).toEqual(['   ┌─ <schema>:12:13', '   │', '12 │ type A { a: B; }', '   │             ^']);
  });

  test('an error without a position, or whose source is unknown, has no frame', () => {
    const plain = new SvcError('VALIDATION_ERROR', 400, 'no schema', { hint: 'pass --schema' });
    expect(formatErrorReport(plain, read)).toBe(
      'error: VALIDATION_ERROR: no schema\n  = hint: pass --schema',
    );
    const lost = new InvalidReferenceError('x', {
      position: { file: 'gone.esdl', line: 1, column: 2 },
    });
    expect(formatErrorReport(lost, read)).toBe(
      'error: InvalidReferenceError: x\n  ┌─ gone.esdl:1:2',
    );
  });

  test('several errors: one block each, then their count', () => {
    const first = new InvalidReferenceError('one', { position: { line: 1, column: 1 } });
    const second = new SchemaSyntaxError('two', { position: { line: 3, column: 1 } });
    const text = formatErrorReport(first.with({ others: [second] }), () => 'a\nb\nc');
    expect(text.split('\n\n')).toEqual([
      'error: InvalidReferenceError: one\n  ┌─ <schema>:1:1\n  │\n1 │ a\n  │ ^',
      'error: SchemaSyntaxError: two\n  ┌─ <schema>:3:1\n  │\n3 │ c\n  │ ^',
      '2 errors',
    ]);
  });

  test(`at most ${MAX_SHOWN_ERRORS} blocks, then how many more`, () => {
    const errors = Array.from(
      { length: MAX_SHOWN_ERRORS + 3 },
      (_, i) => new InvalidReferenceError(`e${i}`, {}),
    );
    const [first, ...others] = errors as [SvcError, ...SvcError[]];
    const blocks = formatErrorReport(first.with({ others }), () => undefined).split('\n\n');
    expect(blocks).toHaveLength(MAX_SHOWN_ERRORS + 2);
    expect(blocks.slice(-2)).toEqual(['and 3 more errors', `${MAX_SHOWN_ERRORS + 3} errors`]);
  });
});

describe('SvcError.with', () => {
  test('keeps the class, message and hint; changes the position and the others', () => {
    const err = new InvalidReferenceError('x', { hint: 'h', position: { line: 1, column: 1 } });
    const moved = err.with({ position: { line: 2, column: 3, file: 'a.esdl' } });
    expect(moved).toBeInstanceOf(InvalidReferenceError);
    expect(moved.name).toBe('InvalidReferenceError');
    expect([moved.message, moved.hint, moved.position]).toEqual([
      'x',
      'h',
      { line: 2, column: 3, file: 'a.esdl' },
    ]);
    expect(err.position).toEqual({ line: 1, column: 1 });
    expect(moved.with({ others: [err] }).others).toEqual([err]);
  });
});
