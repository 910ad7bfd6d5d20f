import fc from 'fast-check';
import {
  DateDuration,
  Duration,
  LocalDate,
  LocalDateTime,
  LocalTime,
  RelativeDuration,
} from './temporal';

// The texts svc answers (docs/http.md, "Value formats in JSON"), each read and printed back.
test.each([
  [LocalDate, '2024-02-29'],
  [LocalDate, '0001-01-01'],
  [LocalTime, '10:20:30.123456'],
  [LocalTime, '10:20:00'],
  [LocalDateTime, '2024-02-29T10:20:30.5'],
  [Duration, 'PT-39M-59.5S'],
  [Duration, 'PT48H0.000001S'],
  [Duration, 'PT0S'],
  [RelativeDuration, 'P1Y2M-3DT4H0.25S'],
  [RelativeDuration, 'PT0S'],
  [DateDuration, 'P1Y2M3D'],
  [DateDuration, 'P0D'],
])('%p reads %s and prints it back', (cls, text) => {
  expect(String(cls.parse(text))).toBe(text);
  expect(JSON.stringify(cls.parse(text))).toBe(JSON.stringify(text));
});

test('fields', () => {
  expect(LocalDate.parse('2024-02-29')).toMatchObject({ year: 2024, month: 2, day: 29 });
  expect(LocalTime.parse('10:20:30.5')).toMatchObject({
    hour: 10,
    second: 30,
    microsecond: 500000,
  });
  expect(Duration.parse('PT-39M-59.5S')).toMatchObject({
    minutes: -39,
    seconds: -59,
    microseconds: -500000,
  });
  expect(Duration.parse('PT1H0.5S').totalMicroseconds).toBe(3_600_500_000);
});

test.each([
  [LocalDate, '2023-02-29'],
  [LocalDate, '2024-2-1'],
  [LocalTime, '24:00:00'],
  [LocalTime, '10:20'],
  [Duration, 'P1D'],
  [Duration, 'P'],
  [Duration, 'PT'],
  [DateDuration, 'PT1H'],
  [RelativeDuration, '1 day'],
])('%p refuses %s', (cls, text) => {
  expect(() => cls.parse(text)).toThrow(RangeError);
});

test('a field given as -0 is 0 (found by the property below: seed 887446012)', () => {
  const d = new RelativeDuration(0, 0, 0, 0, 0, -0, -0);
  expect(Object.is(d.seconds, 0) && Object.is(d.microseconds, 0)).toBe(true);
  expect(RelativeDuration.parse(d.toString())).toEqual(d);
  expect(Object.is(new DateDuration(-0).years, 0)).toBe(true);
});

test('every duration prints to text it reads back as itself', () => {
  const field = fc.integer({ min: -100000, max: 100000 });
  fc.assert(
    fc.property(
      field,
      field,
      field,
      field,
      field,
      fc.integer({ min: 0, max: 59 }),
      fc.integer({ min: 0, max: 999999 }),
      fc.boolean(),
      (years, months, days, hours, minutes, s, us, negative) => {
        const d = new RelativeDuration(
          years,
          months,
          days,
          hours,
          minutes,
          negative ? -s : s,
          negative ? -us : us,
        );
        expect(RelativeDuration.parse(d.toString())).toEqual(d);
      },
    ),
    { numRuns: 300 },
  );
});
