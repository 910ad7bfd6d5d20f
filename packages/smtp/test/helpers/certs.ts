import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A private CA and a server certificate it signed, for 127.0.0.1 and localhost. PEM strings. */
export interface TestCertificates {
  readonly ca: string;
  readonly key: string;
  readonly cert: string;
  /** A second, unrelated CA: trusting it must not make the server certificate valid. */
  readonly otherCa: string;
}

function openssl(cwd: string, args: string[]): void {
  execFileSync('/usr/bin/openssl', args, { cwd, stdio: 'pipe', timeout: 20_000 });
}

function makeCa(dir: string, name: string): void {
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-subj',
    `/CN=svc smtp test ${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
}

/** Generates fresh certificates with the openssl CLI in a temporary directory (removed again). */
export function makeCertificates(): TestCertificates {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-smtp-certs-'));
  try {
    makeCa(dir, 'ca');
    makeCa(dir, 'other');
    fs.writeFileSync(
      path.join(dir, 'server.ext'),
      'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
    );
    openssl(dir, [
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      'server.key',
      '-out',
      'server.csr',
      '-subj',
      '/CN=localhost',
    ]);
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.crt',
      '-days',
      '2',
      '-extfile',
      'server.ext',
    ]);
    const read = (file: string): string => fs.readFileSync(path.join(dir, file), 'utf8');
    return {
      ca: read('ca.crt'),
      key: read('server.key'),
      cert: read('server.crt'),
      otherCa: read('other.crt'),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
