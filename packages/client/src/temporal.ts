/**
 * client/temporal: the values of EdgeQL's date and time types that JavaScript has no type for,
 * as gel-js has them: `LocalDate`, `LocalTime`, `LocalDateTime` (`cal::` types, no time zone),
 * `Duration` (`std::duration`: hours and smaller), `RelativeDuration` (`cal::relative_duration`)
 * and `DateDuration` (`cal::date_duration`). Each parses svc's JSON text (ISO 8601; a duration's
 * fields each signed, `PT-39M-59.5S`) and prints it back the same way, so a value read from a
 * result can be sent as a variable unchanged (`toJSON`).
 */

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

function checked(ok: boolean, what: string, text: string): void {
  if (!ok) throw new RangeError(`not a ${what}: ${JSON.stringify(text)}`);
}

/** A fraction of a second as microseconds (`"5"` → 500000); at most 6 digits. */
function micros(fraction: string | undefined): number {
  return fraction ? Number(fraction.padEnd(6, '0').slice(0, 6)) : 0;
}

/** `s` seconds and `us` microseconds (same sign) as ISO text: `59.5`, `-0.25`, `3`. */
function secondsText(s: number, us: number): string {
  const negative = s < 0 || us < 0;
  const fraction = us === 0 ? '' : `.${pad(us, 6).replace(/0+$/, '')}`;
  return `${negative ? '-' : ''}${Math.abs(s)}${fraction}`;
}

export class LocalDate {
  constructor(
    readonly year: number,
    readonly month: number,
    readonly day: number,
  ) {
    const probe = new Date(Date.UTC(2000, month - 1, day));
    probe.setUTCFullYear(year);
    checked(
      Number.isInteger(year) &&
        probe.getUTCFullYear() === year &&
        probe.getUTCMonth() === month - 1 &&
        probe.getUTCDate() === day,
      'date',
      `${year}-${month}-${day}`,
    );
  }
  static parse(text: string): LocalDate {
    const m = /^(-?\d{4,})-(\d{2})-(\d{2})$/.exec(text);
    checked(m !== null, 'cal::local_date', text);
    const [, y, mo, d] = m as RegExpExecArray;
    return new LocalDate(Number(y), Number(mo), Number(d));
  }
  toString(): string {
    return `${this.year < 0 ? '-' : ''}${pad(this.year, 4)}-${pad(this.month)}-${pad(this.day)}`;
  }
  toJSON(): string {
    return this.toString();
  }
}

export class LocalTime {
  constructor(
    readonly hour: number,
    readonly minute: number,
    readonly second: number,
    readonly microsecond = 0,
  ) {
    checked(
      [hour, minute, second, microsecond].every(Number.isInteger) &&
        hour >= 0 &&
        hour < 24 &&
        minute >= 0 &&
        minute < 60 &&
        second >= 0 &&
        second < 60 &&
        microsecond >= 0 &&
        microsecond < 1_000_000,
      'time',
      `${hour}:${minute}:${second}.${microsecond}`,
    );
  }
  static parse(text: string): LocalTime {
    const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?$/.exec(text);
    checked(m !== null, 'cal::local_time', text);
    const [, h, mi, s, f] = m as RegExpExecArray;
    return new LocalTime(Number(h), Number(mi), Number(s), micros(f));
  }
  toString(): string {
    const fraction =
      this.microsecond === 0 ? '' : `.${pad(this.microsecond, 6).replace(/0+$/, '')}`;
    return `${pad(this.hour)}:${pad(this.minute)}:${pad(this.second)}${fraction}`;
  }
  toJSON(): string {
    return this.toString();
  }
}

export class LocalDateTime {
  constructor(
    readonly date: LocalDate,
    readonly time: LocalTime,
  ) {}
  static parse(text: string): LocalDateTime {
    const at = text.indexOf('T');
    checked(at > 0, 'cal::local_datetime', text);
    return new LocalDateTime(
      LocalDate.parse(text.slice(0, at)),
      LocalTime.parse(text.slice(at + 1)),
    );
  }
  toString(): string {
    return `${this.date}T${this.time}`;
  }
  toJSON(): string {
    return this.toString();
  }
}

/** ISO 8601 duration fields, each signed as svc prints them. */
interface Fields {
  years: number;
  months: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  microseconds: number;
}

const ISO_DURATION =
  /^P(?:(-?\d+)Y)?(?:(-?\d+)M)?(?:(-?\d+)D)?(?:T(?:(-?\d+)H)?(?:(-?\d+)M)?(?:(-?)(\d+)(?:\.(\d{1,6}))?S)?)?$/;

function parseDuration(text: string, what: string): Fields {
  const m = ISO_DURATION.exec(text);
  checked(m !== null && text !== 'P' && !text.endsWith('T'), what, text);
  const [, y, mo, d, h, mi, sign, s, f] = m as RegExpExecArray;
  const negative = sign === '-';
  const seconds = Number(s ?? 0);
  const us = micros(f);
  return {
    years: Number(y ?? 0),
    months: Number(mo ?? 0),
    days: Number(d ?? 0),
    hours: Number(h ?? 0),
    minutes: Number(mi ?? 0),
    seconds: negative ? -seconds : seconds,
    microseconds: negative ? -us : us,
  };
}

function printDuration(f: Fields, empty: string): string {
  const date = `${f.years ? `${f.years}Y` : ''}${f.months ? `${f.months}M` : ''}${f.days ? `${f.days}D` : ''}`;
  const time = `${f.hours ? `${f.hours}H` : ''}${f.minutes ? `${f.minutes}M` : ''}${
    f.seconds || f.microseconds ? `${secondsText(f.seconds, f.microseconds)}S` : ''
  }`;
  if (!date && !time) return empty;
  return `P${date}${time ? `T${time}` : ''}`;
}

/** `std::duration`: a fixed length of time (hours, minutes, seconds; no days or months). */
export class Duration {
  constructor(
    readonly hours = 0,
    readonly minutes = 0,
    readonly seconds = 0,
    readonly microseconds = 0,
  ) {}
  static parse(text: string): Duration {
    const f = parseDuration(text, 'duration');
    checked(f.years === 0 && f.months === 0 && f.days === 0, 'duration', text);
    return new Duration(f.hours, f.minutes, f.seconds, f.microseconds);
  }
  /** The whole length in microseconds. */
  get totalMicroseconds(): number {
    return ((this.hours * 60 + this.minutes) * 60 + this.seconds) * 1_000_000 + this.microseconds;
  }
  toString(): string {
    return printDuration({ ...this, years: 0, months: 0, days: 0 }, 'PT0S');
  }
  toJSON(): string {
    return this.toString();
  }
}

/** `cal::relative_duration`: years, months and days as the calendar counts them, and time. */
export class RelativeDuration {
  readonly years: number;
  readonly months: number;
  readonly days: number;
  readonly hours: number;
  readonly minutes: number;
  readonly seconds: number;
  readonly microseconds: number;
  /** A field given as -0 is 0: a duration's text has no signed zero to carry it. */
  constructor(
    years = 0,
    months = 0,
    days = 0,
    hours = 0,
    minutes = 0,
    seconds = 0,
    microseconds = 0,
  ) {
    this.years = years + 0;
    this.months = months + 0;
    this.days = days + 0;
    this.hours = hours + 0;
    this.minutes = minutes + 0;
    this.seconds = seconds + 0;
    this.microseconds = microseconds + 0;
  }
  static parse(text: string): RelativeDuration {
    const f = parseDuration(text, 'cal::relative_duration');
    return new RelativeDuration(
      f.years,
      f.months,
      f.days,
      f.hours,
      f.minutes,
      f.seconds,
      f.microseconds,
    );
  }
  toString(): string {
    return printDuration(this, 'PT0S');
  }
  toJSON(): string {
    return this.toString();
  }
}

/** `cal::date_duration`: years, months and days. */
export class DateDuration {
  readonly years: number;
  readonly months: number;
  readonly days: number;
  /** A field given as -0 is 0, as in RelativeDuration. */
  constructor(years = 0, months = 0, days = 0) {
    this.years = years + 0;
    this.months = months + 0;
    this.days = days + 0;
  }
  static parse(text: string): DateDuration {
    const f = parseDuration(text, 'cal::date_duration');
    checked(
      f.hours === 0 && f.minutes === 0 && f.seconds === 0 && f.microseconds === 0,
      'cal::date_duration',
      text,
    );
    return new DateDuration(f.years, f.months, f.days);
  }
  toString(): string {
    return printDuration({ ...this, hours: 0, minutes: 0, seconds: 0, microseconds: 0 }, 'P0D');
  }
  toJSON(): string {
    return this.toString();
  }
}
