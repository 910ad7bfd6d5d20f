import {
  CardinalityViolationError,
  ConstraintViolationError,
  EdgeQLSyntaxError,
  InvalidSyntaxError,
  InvalidValueError,
  QueryAssertionError,
  QUERY_ERROR_BY_SQLSTATE,
  QueryError,
  SvcError,
  UnsupportedFeatureError,
  commonError,
  defineErrorCodes,
  queryErrorClassForSqlState,
  registeredErrorCodes,
  renderError,
} from './index';

describe('query error classes', () => {
  test('are built from the table with Gel names and parents', () => {
    const err = new EdgeQLSyntaxError('unexpected token', { position: { line: 2, column: 5 } });
    expect(err).toBeInstanceOf(EdgeQLSyntaxError);
    expect(err).toBeInstanceOf(InvalidSyntaxError);
    expect(err).toBeInstanceOf(QueryError);
    expect(err).toBeInstanceOf(SvcError);
    expect(err.name).toBe('EdgeQLSyntaxError');
    expect(err.type).toBe('EdgeQLSyntaxError');
    expect(err.code).toBe('QUERY_ERROR');
    expect(err.status).toBe(400);
  });

  test('ConstraintViolationError renders as 409 CONSTRAINT_VIOLATION', () => {
    const rendered = renderError(new ConstraintViolationError('title violates exclusivity'));
    expect(rendered.status).toBe(409);
    expect(rendered.body).toEqual({
      code: 'CONSTRAINT_VIOLATION',
      error: 'CONSTRAINT_VIOLATION: title violates exclusivity',
      type: 'ConstraintViolationError',
      extensions: { sqlState: '23514' },
    });
  });

  test('SQLSTATE maps back to the most specific class', () => {
    expect(QUERY_ERROR_BY_SQLSTATE.get('21000')).toBe(CardinalityViolationError);
    expect(QUERY_ERROR_BY_SQLSTATE.get('42601')).toBe(EdgeQLSyntaxError);
    // std::assert raises assert_failure: Gel's QueryAssertionError (an InvalidValueError).
    expect(queryErrorClassForSqlState('P0004')).toBe(QueryAssertionError);
    expect(new QueryAssertionError('assertion failed')).toBeInstanceOf(InvalidValueError);
    // SQL the compiler produced with types PostgreSQL has no operator for: not a 500.
    expect(queryErrorClassForSqlState('42883')).toBe(UnsupportedFeatureError);
    expect(queryErrorClassForSqlState('42P01')).toBeUndefined();
  });
});

describe('renderError', () => {
  test('renders hint and position in the envelope', () => {
    const err = new EdgeQLSyntaxError("Unexpected 'selec'", {
      hint: 'did you mean select?',
      position: { line: 1, column: 1 },
    });
    expect(renderError(err).body).toEqual({
      code: 'QUERY_ERROR',
      error: "QUERY_ERROR: Unexpected 'selec'",
      type: 'EdgeQLSyntaxError',
      hint: 'did you mean select?',
      extensions: { sqlState: '42601', position: { line: 1, column: 1 } },
    });
  });

  test('common codes carry their table status and headers', () => {
    const err = commonError('RATE_LIMITED', 'too many requests', {
      headers: { 'Retry-After': '7' },
    });
    const rendered = renderError(err);
    expect(rendered.status).toBe(429);
    expect(rendered.headers).toEqual({ 'Retry-After': '7' });
    expect(rendered.body).toEqual({
      code: 'RATE_LIMITED',
      error: 'RATE_LIMITED: too many requests',
    });
  });

  test('an unknown value becomes INTERNAL_ERROR without its internals', () => {
    const rendered = renderError(new Error('password=hunter2 at /srv/app.ts:12'));
    expect(rendered.status).toBe(500);
    expect(rendered.unexpected).toBe(true);
    expect(JSON.stringify(rendered.body)).not.toContain('hunter2');
    expect(rendered.body.code).toBe('INTERNAL_ERROR');
  });
});

describe('the error-code registry', () => {
  test('holds every code of the core tables once, with its status and table', () => {
    const entries = registeredErrorCodes();
    expect(new Set(entries.map((e) => e.code)).size).toBe(entries.length);
    for (const [code, status] of Object.entries(commonError.statuses)) {
      expect(entries).toContainEqual({ code, status, owner: 'common' });
    }
    expect(entries).toContainEqual({ code: 'QUERY_ERROR', status: 400, owner: 'query' });
    expect(entries).toContainEqual({ code: 'CONSTRAINT_VIOLATION', status: 409, owner: 'query' });
  });

  test('refuses, at definition, a code another table declares (whatever its status)', () => {
    expect(() => defineErrorCodes('feature', { INVALID_OPERATION: 400 })).toThrow(
      /INVALID_OPERATION is declared twice: by the common table \(400\) and by the feature table \(400\)/,
    );
    expect(() => defineErrorCodes('feature', { UNAUTHORIZED: 403 })).toThrow(/declared twice/);
  });

  test('refuses a code declared again with another status; the same table again is fine', () => {
    const first = defineErrorCodes('twice', { TWICE_DECLARED: 409 });
    expect(() => defineErrorCodes('twice', { TWICE_DECLARED: 409 })).not.toThrow();
    expect(() => defineErrorCodes('twice', { TWICE_DECLARED: 410 })).toThrow(
      /two statuses: 409 and 410/,
    );
    expect(first('TWICE_DECLARED', 'x').status).toBe(409);
  });

  test('a refused table registers none of its codes', () => {
    expect(() => defineErrorCodes('half', { HALF_NEW: 400, NOT_FOUND: 404 })).toThrow(/NOT_FOUND/);
    expect(registeredErrorCodes().map((e) => e.code)).not.toContain('HALF_NEW');
  });

  test.each([
    ['a lower-case code', { notUpper: 400 }],
    ['a status below 400', { OK_CODE: 200 }],
    ['a status that is not an integer', { ODD_CODE: 400.5 }],
  ])('refuses %s', (_n, table) => {
    expect(() => defineErrorCodes('bad', table)).toThrow(TypeError);
  });
});
