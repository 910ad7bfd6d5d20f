import { SmtpError, type SmtpErrorCode } from './errors';
import { encodePhrase } from './header';

/** A validated mailbox: the bare address for the envelope and the form for the header. */
export interface Mailbox {
  /** The addr-spec, `user@example.com`, as sent in `MAIL FROM:<…>` / `RCPT TO:<…>`. */
  readonly address: string;
  /** The display name, when one was given (`Ann <ann@example.com>`). */
  readonly name: string | undefined;
}

const ATEXT = "A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~";
const DOT_ATOM = new RegExp(`^[${ATEXT}]+(?:\\.[${ATEXT}]+)*$`);
const QUOTED_LOCAL = /^"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const IPV4 =
  /^(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$/;
const IPV6 = /^IPv6:[0-9A-Fa-f:.]{2,45}$/;

/** Checks a domain name or an address literal (`[192.0.2.1]`, `[IPv6:::1]`). */
export function isValidDomain(domain: string): boolean {
  if (domain.startsWith('[') && domain.endsWith(']')) {
    const literal = domain.slice(1, -1);
    return IPV4.test(literal) || IPV6.test(literal);
  }
  return domain.length <= 253 && domain.split('.').every((label) => LABEL.test(label));
}

/** Why an addr-spec is not acceptable, or `undefined` when it is. */
function addressProblem(address: string): string | undefined {
  if (/[^\x00-\x7f]/.test(address))
    return 'non-ASCII addresses need SMTPUTF8, which is not supported';
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return 'expected local-part@domain';
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local.length > 64) return 'the local part is longer than 64 characters';
  if (!DOT_ATOM.test(local) && !QUOTED_LOCAL.test(local)) return 'invalid local part';
  if (!isValidDomain(domain)) return 'invalid domain';
  if (address.length > 254) return 'longer than 254 characters';
  return undefined;
}

/**
 * Parses and validates one mailbox, `user@example.com` or `Display Name <user@example.com>`
 * (a quoted display name may contain `<`, `,` and escaped quotes). Refuses CR, LF and other
 * control characters anywhere (header injection) and non-ASCII addresses (SMTPUTF8).
 *
 * @param field names the input in the error message (`to`, `config.from`).
 * @param code `ECONFIG` for configuration, `EMESSAGE` for message input.
 */
export function parseMailbox(input: unknown, field: string, code: SmtpErrorCode): Mailbox {
  const fail = (why: string): never => {
    throw new SmtpError(code, `${field}: ${why}`);
  };
  if (typeof input !== 'string')
    return fail(`expected an email address string, got ${typeof input}`);
  if (/[\r\n]/.test(input))
    return fail('CR and LF are not allowed in an address (header injection)');
  if (/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(input))
    return fail('control characters are not allowed in an address');
  const text = input.trim();
  if (text === '') return fail('an email address is required');
  let name: string | undefined;
  let address = text;
  if (text.endsWith('>')) {
    const open = text.lastIndexOf('<');
    if (open === -1) return fail(`invalid address ${JSON.stringify(input)}`);
    address = text.slice(open + 1, -1).trim();
    name = unquoteName(text.slice(0, open).trim(), fail);
  }
  if (address.includes(',') && !address.startsWith('"')) {
    return fail(
      `one address per string: pass an array for several recipients (got ${JSON.stringify(input)})`,
    );
  }
  const problem = addressProblem(address);
  if (problem) return fail(`invalid address ${JSON.stringify(address)}: ${problem}`);
  return { address, name: name === '' ? undefined : name };
}

function unquoteName(raw: string, fail: (why: string) => never): string {
  if (raw.startsWith('"')) {
    if (raw.length < 2 || !raw.endsWith('"') || (raw.endsWith('\\"') && !raw.endsWith('\\\\"'))) {
      return fail(`unterminated quoted display name ${raw}`);
    }
    return raw.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  if (/[<>"]/.test(raw)) return fail(`invalid display name ${JSON.stringify(raw)}`);
  if (/[,;@]/.test(raw))
    return fail(`a display name with "," ";" or "@" must be quoted; pass one address per string`);
  return raw;
}

/** The mailbox as it appears in a header: `Name <user@example.com>` or `user@example.com`. */
export function formatMailbox(mailbox: Mailbox): string {
  return mailbox.name === undefined
    ? mailbox.address
    : `${encodePhrase(mailbox.name)} <${mailbox.address}>`;
}
