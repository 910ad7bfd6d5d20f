import { CaseFormatError, parseCaseFile } from './case-file';

describe('parseCaseFile', () => {
  test('cases with options, several steps and each kind of expectation', () => {
    const file = parseCaseFile(
      [
        '# a comment',
        'fixture: tracker',
        '',
        '=== first',
        'select <str>$x;',
        '--- variables',
        '{"x": "a"}',
        '--- cardinality one',
        '--- expect',
        '["a"]',
        '',
        '=== second',
        '# pending: a note',
        'insert T;',
        '--- ok',
        '--- then',
        'select T;',
        '--- expect unordered',
        '[{"id": "<uuid>"}]',
        '--- then',
        'select nope;',
        '--- error InvalidReferenceError: nope',
        '=== third',
        '# a note before the step',
        '--- schema',
        'module default { type A; }',
        '--- error SchemaDefinitionError',
      ].join('\n'),
    );
    expect(file.fixture).toBe('tracker');
    expect(file.cases.map((c) => c.name)).toEqual(['first', 'second', 'third']);
    expect(file.cases[0]?.steps).toEqual([
      {
        kind: 'query',
        text: 'select <str>$x;',
        variables: { x: 'a' },
        cardinality: 'one',
        expect: { kind: 'result', order: 'ordered', value: ['a'] },
        line: 5,
      },
    ]);
    const second = file.cases[1]?.steps ?? [];
    expect(second.map((s) => s.expect.kind)).toEqual(['ok', 'result', 'error']);
    expect(second[2]?.expect).toEqual({
      kind: 'error',
      className: 'InvalidReferenceError',
      message: 'nope',
    });
    expect(file.cases[2]?.steps[0]).toMatchObject({
      kind: 'schema',
      sdl: 'module default { type A; }',
    });
  });

  test.each([
    ['no fixture', '=== a\nselect 1;\n--- ok', /missing "fixture/],
    ['no expectation', 'fixture: f\n=== a\nselect 1;', /needs one expectation/],
    [
      'two expectations',
      'fixture: f\n=== a\nselect 1;\n--- ok\n--- expect\n[1]',
      /one expectation per step/,
    ],
    ['bad JSON', 'fixture: f\n=== a\nselect 1;\n--- expect\n[1,', /invalid JSON/],
    ['unknown section', 'fixture: f\n=== a\nselect 1;\n--- expected\n[1]', /unknown section/],
    [
      'duplicate name',
      'fixture: f\n=== a\nselect 1;\n--- ok\n=== a\nselect 2;\n--- ok',
      /duplicate case/,
    ],
    [
      'bad cardinality',
      'fixture: f\n=== a\nselect 1;\n--- cardinality single\n--- ok',
      /cardinality must/,
    ],
    ['no query', 'fixture: f\n=== a\n--- ok', /needs a query/],
  ])('%s is a format error naming the line', (_, text, message) => {
    expect(() => parseCaseFile(text, 'x.case')).toThrow(CaseFormatError);
    expect(() => parseCaseFile(text, 'x.case')).toThrow(message);
  });
});
