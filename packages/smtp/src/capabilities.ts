/** What a server said it supports in its EHLO reply. */
export interface Capabilities {
  /** The first line of the reply: the server's name and greeting text. */
  readonly greeting: string;
  /** Each extension keyword, upper-cased, with its parameters: `SIZE` → `['10240000']`. */
  readonly extensions: ReadonlyMap<string, readonly string[]>;
  /** The SASL mechanisms of `AUTH` (and of the old `AUTH=` form), upper-cased. */
  readonly authMechanisms: ReadonlySet<string>;
  readonly startTls: boolean;
  /** The `SIZE` limit in bytes, when the server announced one (0 means no limit). */
  readonly maxSize: number | undefined;
}

/** The capabilities of a server that answered HELO (EHLO refused): none at all. */
export const NO_CAPABILITIES: Capabilities = {
  greeting: '',
  extensions: new Map(),
  authMechanisms: new Set(),
  startTls: false,
  maxSize: undefined,
};

/**
 * Parses the lines of a 250 reply to EHLO (RFC 5321 section 4.1.1.1). The first line is the
 * greeting; each other line is a keyword followed by space-separated parameters. Keywords are
 * case-insensitive; the obsolete `AUTH=PLAIN LOGIN` form is read as `AUTH`.
 */
export function parseEhloReply(lines: readonly string[]): Capabilities {
  const extensions = new Map<string, readonly string[]>();
  const authMechanisms = new Set<string>();
  for (const line of lines.slice(1)) {
    const words = line
      .trim()
      .split(/[ \t]+/)
      .filter((w) => w.length > 0);
    const first = words[0];
    if (first === undefined) continue;
    let keyword = first.toUpperCase();
    let params = words.slice(1);
    const eq = keyword.indexOf('=');
    if (keyword.startsWith('AUTH=')) {
      params = [first.slice(eq + 1), ...params].filter((w) => w.length > 0);
      keyword = 'AUTH';
    }
    if (keyword === 'AUTH') {
      for (const mechanism of params) authMechanisms.add(mechanism.toUpperCase());
    }
    const known = extensions.get(keyword);
    extensions.set(keyword, known ? [...known, ...params] : params);
  }
  const sizeParam = extensions.get('SIZE')?.[0];
  const size =
    sizeParam !== undefined && /^[0-9]{1,15}$/.test(sizeParam) ? Number(sizeParam) : undefined;
  return {
    greeting: lines[0] ?? '',
    extensions,
    authMechanisms,
    startTls: extensions.has('STARTTLS'),
    maxSize: extensions.has('SIZE') ? size : undefined,
  };
}
