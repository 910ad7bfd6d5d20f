import { closestName } from './hints';

describe('closestName: the "did you mean" of a name a person typed', () => {
  const commands = ['serve', 'migrate', 'query', 'admin', 'generate'];

  test.each([
    ['serv', commands, 'serve'], // a letter short
    ['migarte', commands, 'migrate'], // a transposition is one edit
    ['QUERY', ['query'], undefined], // the name itself, case aside: nothing to suggest
    ['Qeury', commands, 'query'],
    ['prot', ['port', 'host', 'protocol'], 'port'],
    ['dryrun', ['dry-run', 'schema'], 'dry-run'],
    ['token_expiri', ['token_expiry', 'refresh_token_expiry'], 'token_expiry'],
    ['frobnicate', commands, undefined], // nothing close
    ['x', ['h', 'port'], undefined], // too short to tell a slip
    ['ab', ['abc'], undefined],
    ['hst', ['host'], 'host'],
  ])('%s → %s', (word, candidates, expected) => {
    expect(closestName(word, candidates)).toBe(expected);
  });

  test('the closest of several; the first of equals', () => {
    expect(closestName('hots', ['hostname', 'host'])).toBe('host');
    expect(closestName('cat', ['bat', 'car'])).toBe('bat');
  });

  test('an edit budget by length: none up to 2 characters, 1 up to 4, 2 up to 8, 3 beyond', () => {
    expect(closestName('abcd', ['abxy'])).toBeUndefined();
    expect(closestName('abcdefgh', ['abcdefxy'])).toBe('abcdefxy');
    expect(closestName('abcdefgh', ['abcdexyz'])).toBeUndefined();
    expect(closestName('abcdefghij', ['abcdefgxyz'])).toBe('abcdefgxyz');
  });
});
