/**
 * How a function's running time grows with its input, measured inside the test: the best of five
 * runs at one size and at eight times that size, after a warm-up of both. Time is this process's
 * CPU time, not the clock's, so other processes on a loaded machine do not count. Linear work
 * gives a ratio near 8 and quadratic work near 64; a bound between them (the tests use 40: the
 * garbage collector's share grows with a large retained result) tells the two apart where an
 * absolute time limit would fail for reasons that are not the code's.
 */
export function growthRatio<T>(make: (scale: number) => T, work: (input: T) => void): number {
  const small = make(1);
  const large = make(8);
  work(small);
  work(large);
  const best = (input: T) => {
    let fastest = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 5; run++) {
      const started = cpuMs();
      work(input);
      fastest = Math.min(fastest, cpuMs() - started);
    }
    // A floor of 1 ms keeps a ratio over a run too fast to time from meaning anything.
    return Math.max(fastest, 1);
  };
  return best(large) / best(small);
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
