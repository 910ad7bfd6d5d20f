/**
 * client/range: a value of `range<T>` (gel-js's `Range`). svc's JSON form is `{"lower",
 * "upper", "inc_lower", "inc_upper"}` (a bound absent or null is unbounded) or `{"empty": true}`;
 * `toJSON` gives that form back, so a range read from a result goes back as a variable.
 */
export class Range<T> {
  constructor(
    readonly lower: T | null,
    readonly upper: T | null,
    readonly incLower = true,
    readonly incUpper = false,
    readonly isEmpty = false,
  ) {}

  /** The empty range. */
  static empty<T>(): Range<T> {
    return new Range<T>(null, null, false, false, true);
  }

  toJSON(): Record<string, unknown> {
    if (this.isEmpty) return { empty: true };
    return {
      lower: this.lower,
      upper: this.upper,
      inc_lower: this.incLower,
      inc_upper: this.incUpper,
    };
  }
}
