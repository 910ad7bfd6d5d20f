import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closestName } from '@svc/core';

/** Asks the person at the terminal one question; resolves with the line typed (trimmed). */
export type Ask = (question: string) => Promise<string>;

/** Where a command writes; tests pass their own. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** True when stdout is a terminal (output for people: `svc query` indents its JSON). */
  readonly isTTY?: boolean;
  /**
   * Questions to a person (`svc migration create` asks about renames and fills, as Gel does):
   * present only when stdin and stdout are both terminals. Scripts get flags instead.
   */
  readonly ask?: Ask;
}

export const processIo: CliIo = {
  stdout: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  stderr: (text) => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  get isTTY() {
    return process.stdout.isTTY === true;
  },
  get ask() {
    return process.stdin.isTTY && process.stdout.isTTY
      ? terminalAsk(process.stdin, process.stdout)
      : undefined;
  },
};

/**
 * Questions on a terminal, one line each (readline: the line can be edited). Ctrl-C at the
 * question exits 130; the end of the input (Ctrl-D) with no answer exits 1.
 */
export function terminalAsk(input: Readable, output: Writable): Ask {
  return (question) =>
    new Promise((resolve, reject) => {
      const rl = readline.createInterface({ input, output, terminal: true });
      let answered = false;
      rl.on('SIGINT', () => {
        answered = true;
        output.write('\n');
        rl.close();
        reject(new ExitError(130, 'cancelled'));
      });
      rl.on('close', () => {
        if (!answered) reject(new ExitError(1, `no answer to: ${question.trim()}`));
      });
      rl.question(question, (line) => {
        answered = true;
        rl.close();
        resolve(line.trim());
      });
    });
}

/** A command's way to end with an exit code and a message for stderr. */
export class ExitError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'ExitError';
  }
}

/**
 * `node:util` parseArgs in strict mode, with a bad flag or argument turned into exit code 2 and
 * the command's usage.
 */
export type CommandArgs<Options extends ParseArgsConfig['options']> = ReturnType<
  typeof parseArgs<{ args: string[]; strict: true; allowPositionals: boolean; options: Options }>
>;

export function parseCommandArgs<const Options extends ParseArgsConfig['options']>(
  argv: readonly string[],
  options: Options,
  usage: string,
  allowPositionals = false,
): CommandArgs<Options> {
  try {
    return parseArgs({ args: [...argv], strict: true, allowPositionals, options });
  } catch (err) {
    throw new ExitError(2, `${optionProblem(err as Error, options ?? {})}\n\n${usage}`);
  }
}

/**
 * parseArgs's complaint, shortened for an unknown option (its advice on `--` is for arguments
 * that start with a dash, rarely the case) and with the closest option it knows.
 */
function optionProblem(
  err: Error & { code?: string },
  options: NonNullable<ParseArgsConfig['options']>,
): string {
  const unknown = /^Unknown option '(-{1,2}[^'=]+)/.exec(err.message)?.[1];
  if (err.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || unknown === undefined) return err.message;
  const near = closestName(unknown.replace(/^-+/, ''), Object.keys(options));
  return `unknown option ${unknown}${near === undefined ? '' : `; did you mean --${near}?`}`;
}
