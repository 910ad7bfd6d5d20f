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
export async function readSecret(
  input: SecretInput,
  output: Writable,
  prompt: string,
  confirm: boolean,
): Promise<string> {
  if (input.isTTY && typeof input.setRawMode === 'function') {
    const first = await promptHidden(input, output, `${prompt}: `);
    if (confirm && first !== '') {
      const again = await promptHidden(input, output, `Repeat ${prompt.toLowerCase()}: `);
      if (again !== first) throw new ExitError(2, 'the two passwords differ');
    }
    return first;
  }
  return readLine(input);
}

/** One line of a non-terminal input: up to the first LF (a CR before it dropped) or the end. */
function readLine(input: Readable): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const finish = () => {
      input.off('data', onData);
      input.off('end', finish);
      input.off('error', reject);
      input.pause();
      // Done with it: a writer that keeps the pipe open must not keep the command waiting.
      (input as { unref?: () => void }).unref?.();
      const text = Buffer.concat(chunks).toString('utf8');
      const newline = text.indexOf('\n');
      const line = newline === -1 ? text : text.slice(0, newline);
      resolve(line.endsWith('\r') ? line.slice(0, -1) : line);
    };
    const onData = (chunk: Buffer | string) => {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      if (chunks[chunks.length - 1]!.includes(0x0a)) finish();
    };
    input.on('data', onData);
    input.once('end', finish);
    input.once('error', reject);
    input.resume();
  });
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
