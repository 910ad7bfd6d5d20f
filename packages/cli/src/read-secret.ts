import type { Readable, Writable } from 'node:stream';
import { ExitError } from './io';

/** What `readSecret` reads from: `process.stdin` in the binary. */
export type SecretInput = Readable & {
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?: (raw: boolean) => unknown;
};

/**
 * Reads a secret that was not given on the command line (where `ps` and shell history would
 * keep it): on a terminal, a prompt on `output` with nothing echoed (typed twice when `confirm`);
 * otherwise one line from the input (`echo "$PW" | svc admin ...`, a file, a pipe from a secret
 * store). The line ending is dropped, nothing else: spaces belong to the password. Ctrl-C at the
 * prompt exits 130.
 */
export function readSecret(
  input: SecretInput,
  output: Writable,
  prompt: string,
  confirm: boolean,
): Promise<string> {
  return secretPrompter(input, output)(prompt, confirm);
}

/**
 * `readSecret` for several secrets in turn (`svc login`: the password, then a TOTP code): on a
 * terminal a hidden prompt each; otherwise one line of the input each, in order (a line read
 * past is kept for the next ask).
 */
export function secretPrompter(
  input: SecretInput,
  output: Writable,
): (prompt: string, confirm: boolean) => Promise<string> {
  const lines = new LineReader(input);
  return async (prompt, confirm) => {
    if (input.isTTY && typeof input.setRawMode === 'function') {
      const first = await promptHidden(input, output, `${prompt}: `);
      if (confirm && first !== '') {
        const again = await promptHidden(input, output, `Repeat ${prompt.toLowerCase()}: `);
        if (again !== first) throw new ExitError(2, 'the two passwords differ');
      }
      return first;
    }
    return lines.next();
  };
}

/** Lines of a non-terminal input: up to each LF (a CR before it dropped), the last up to the end. */
class LineReader {
  #pending = Buffer.alloc(0);
  #ended = false;
  constructor(readonly input: Readable) {}

  next(): Promise<string> {
    const take = (): string | undefined => {
      const newline = this.#pending.indexOf(0x0a);
      if (newline === -1 && !this.#ended) return undefined;
      const end = newline === -1 ? this.#pending.length : newline;
      const line = this.#pending.subarray(0, end).toString('utf8');
      this.#pending = this.#pending.subarray(newline === -1 ? end : end + 1);
      return line.endsWith('\r') ? line.slice(0, -1) : line;
    };
    const ready = take();
    if (ready !== undefined) return Promise.resolve(ready);
    const input = this.input;
    return new Promise((resolve, reject) => {
      const finish = (line: string) => {
        input.off('data', onData);
        input.off('end', onEnd);
        input.off('error', reject);
        input.pause();
        // Done with it: a writer that keeps the pipe open must not keep the command waiting.
        (input as { unref?: () => void }).unref?.();
        resolve(line);
      };
      const onData = (chunk: Buffer | string) => {
        this.#pending = Buffer.concat([
          this.#pending,
          typeof chunk === 'string' ? Buffer.from(chunk) : chunk,
        ]);
        const line = take();
        if (line !== undefined) finish(line);
      };
      const onEnd = () => {
        this.#ended = true;
        finish(take() ?? '');
      };
      input.on('data', onData);
      input.once('end', onEnd);
      input.once('error', reject);
      (input as { ref?: () => void }).ref?.();
      input.resume();
    });
  }
}

/** A prompt in raw mode: the terminal echoes nothing; Backspace and Ctrl-U edit; Enter ends. */
function promptHidden(input: SecretInput, output: Writable, prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // Raw mode first, then the prompt: whatever is typed after the prompt shows is never echoed.
    const wasRaw = input.isRaw === true;
    input.setRawMode!(true);
    output.write(prompt);
    let value = '';
    const done = (err: Error | undefined) => {
      input.off('data', onData);
      input.setRawMode!(wasRaw);
      input.pause();
      output.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of String(chunk)) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return done(undefined); // Enter, Ctrl-D
        if (ch === '\u0003') return done(new ExitError(130, 'cancelled')); // Ctrl-C
        if (ch === '\u007f' || ch === '\b') value = Array.from(value).slice(0, -1).join('');
        else if (ch === '\u0015')
          value = ''; // Ctrl-U
        else if (ch === '\u001b')
          return; // an escape sequence (arrow keys...): drop the rest of it
        else if (ch >= ' ') value += ch;
      }
    };
    input.on('data', onData);
    input.resume();
  });
}
