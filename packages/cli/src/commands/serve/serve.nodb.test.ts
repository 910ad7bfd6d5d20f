import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExitError } from '../../io';
import { parseServeArgs } from './index';

const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cli-'));
const parse = (argv: string[], env: Record<string, string> = {}) =>
  parseServeArgs(argv, { cwd, env });
const exitOf = (argv: string[]) => {
  try {
    parse(argv);
  } catch (err) {
    if (err instanceof ExitError) return `${err.exitCode}: ${err.message.split('\n')[0]}`;
    throw err;
  }
  return 'no exit';
};

describe('svc serve flags', () => {
  test('map to server options', () => {
    const o = parse([
      '--port',
      '0',
      '--host',
      '127.0.0.2',
      '--enable-auth',
      '--jwt-secret',
      's'.repeat(32),
      '--log-level',
      'warn',
    ]);
    expect(o).toMatchObject({
      port: 0,
      host: '127.0.0.2',
      enableAuth: true,
      jwtSecret: 's'.repeat(32),
      logLevel: 'warn',
    });
  });

  test('--database-url and --data-dir choose the database; the data dir is resolved against cwd', () => {
    expect(parse(['--database-url', 'postgres://u@127.0.0.1/db']).database).toEqual({
      url: 'postgres://u@127.0.0.1/db',
    });
    expect(parse(['--data-dir', 'data']).database).toEqual({ dataDir: path.join(cwd, 'data') });
    expect(exitOf(['--database-url', 'x', '--data-dir', 'y'])).toBe(
      '2: --database-url and --data-dir name two different databases: give one',
    );
  });

  test('passes the environment through for the server to resolve', () => {
    expect(parse([], { SVC_PORT: '1234' }).env).toEqual({ SVC_PORT: '1234' });
  });

  test('uses ./svc.toml when present, --config otherwise', () => {
    expect(parse([]).configFile).toBeUndefined();
    fs.writeFileSync(path.join(cwd, 'svc.toml'), '[server]\nport = 1\n');
    expect(parse([]).configFile).toBe(path.join(cwd, 'svc.toml'));
    expect(parse(['--config', 'other.toml']).configFile).toBe(path.join(cwd, 'other.toml'));
    fs.rmSync(path.join(cwd, 'svc.toml'));
  });

  test('reads --tls-cert and --tls-key, which go together', () => {
    fs.writeFileSync(path.join(cwd, 'c.pem'), 'CERT');
    fs.writeFileSync(path.join(cwd, 'k.pem'), 'KEY');
    const o = parse(['--tls-cert', 'c.pem', '--tls-key', 'k.pem']);
    expect(String(o.tls?.cert)).toBe('CERT');
    expect(String(o.tls?.key)).toBe('KEY');
    expect(exitOf(['--tls-cert', 'c.pem'])).toBe('2: --tls-cert and --tls-key go together');
    expect(exitOf(['--tls-cert', 'nope.pem', '--tls-key', 'k.pem'])).toBe(
      '2: --tls-cert: cannot read nope.pem (ENOENT)',
    );
  });

  test('refuses bad input with exit code 2', () => {
    expect(exitOf(['--port', 'http'])).toBe(
      '2: --port must be an integer from 0 to 65535, got "http"',
    );
    expect(exitOf(['--bogus'])).toMatch(/^2: unknown option --bogus$/);
    expect(exitOf(['--hots', 'x'])).toMatch(/^2: unknown option --hots; did you mean --host\?$/);
    expect(exitOf(['extra'])).toMatch(/^2: Unexpected argument 'extra'/);
  });

  test('--schema reads a file or a folder of .esdl files; dbschema/ by default', () => {
    expect(exitOf(['--schema', 'nope'])).toBe('2: --schema: nope does not exist');
    fs.mkdirSync(path.join(cwd, 'dbschema'));
    expect(exitOf([])).toBe('2: --schema: dbschema holds no .esdl files');
    fs.writeFileSync(path.join(cwd, 'dbschema', 'b.esdl'), 'type B;');
    fs.writeFileSync(path.join(cwd, 'dbschema', 'a.esdl'), 'type A;');
    expect(parse([]).schema).toBe('type A;\ntype B;');
    fs.writeFileSync(path.join(cwd, 'one.esdl'), 'type One;');
    expect(parse(['--schema', 'one.esdl']).schema).toBe('type One;');
    fs.rmSync(path.join(cwd, 'dbschema'), { recursive: true });
  });

  test('--help', () => {
    expect(parse(['--help'])).toEqual({ help: true });
  });
});
