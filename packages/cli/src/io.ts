/** Where a command writes; tests pass their own. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const processIo: CliIo = {
  stdout: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  stderr: (text) => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

/** A command's way to end with an exit code and a message for stderr. */
export class ExitError extends Error {
  constructor(readonly exitCode: number, message: string) {
    super(message);
    this.name = 'ExitError';
  }
}
