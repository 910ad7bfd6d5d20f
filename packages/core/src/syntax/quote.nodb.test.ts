import { parseExpression, parseType } from '.';
import { printExpression, printType, quoteIdent, quoteName } from './printer';

const NAMES = ['title', 'select', 'limit', 'Order', 'a b', 'x`y', '_x', 'créé', '1abc', 'module'];

test('quoteIdent is the printer rule: plain names stay, keywords and others are backticked', () => {
  expect(quoteIdent('title')).toBe('title');
  expect(quoteIdent('select')).toBe('`select`');
  expect(quoteIdent('x`y')).toBe('`x``y`');
  for (const name of NAMES) {
    const text = quoteIdent(name);
    expect(printExpression(parseExpression(text))).toBe(text);
  }
});

test('quoteName quotes the module path and the name as the type printer does', () => {
  expect(quoteName('default::User')).toBe('default::User');
  expect(quoteName('default::select')).toBe('default::`select`');
  for (const name of NAMES) {
    for (const qualified of [`default::${name}`, `${name}::T`, `a::${name}::T`]) {
      const text = quoteName(qualified);
      expect(printType(parseType(text))).toBe(text);
    }
  }
});
