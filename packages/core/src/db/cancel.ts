/**
 * db/cancel: stopping a statement whose caller has given up (QueryOptions.signal).
 *
 * PostgreSQL stops a running statement on a CancelRequest (protocol 3, "Canceling Requests in
 * Progress"): a message on a NEW connection carrying the backend's process id and secret key,
 * answered by closing that connection. It needs no login and takes no slot of the pool, so it
 * works when every pooled connection is busy with the statements it should stop (a pooler such
 * as PgBouncer forwards it). The statement then fails with SQLSTATE 57014.
 *
 * A cancel request that reaches the backend between two statements is ignored by PostgreSQL;
 * one that overtakes the statement it was meant for (possible in theory: it travels on a new
 * connection) leaves that statement to the backstop too.
 *
 * Invariants: a cancel request never rejects (a lost one leaves the statement to the
 * connection's statement_timeout, the backstop); it is bounded in time; a statement refused
 * before it started rejects with the same SQLSTATE 57014, so errors/database-errors maps every
 * cancellation through its one table.
 */
import type { Connection } from 'pg';

/** A statement refused before it reached the database: its signal had aborted. */
export class StatementCancelledError extends Error {
  /** SQLSTATE query_canceled, as PostgreSQL reports a statement it cancelled. */
  readonly code = '57014';
  constructor() {
    super('canceling statement: its caller gave up before it started');
    this.name = 'StatementCancelledError';
  }
}

/** What a CancelRequest needs of a connected `pg` client (BackendKeyData; not in @types/pg). */
export interface BackendKey {
  readonly processID: number | null;
  readonly secretKey: number | null;
  readonly host: string;
  readonly port: number;
  readonly ssl: unknown;
  readonly sslNegotiation?: string;
}

/** The parts of `pg`'s Connection a CancelRequest drives (typed only in part by @types/pg). */
interface CancelConnection extends Connection {
  connect(port: number | string, host?: string): void;
  requestSsl(): void;
  cancel(processID: number, secretKey: number): void;
}

/**
 * Asks PostgreSQL to cancel whatever `client`'s backend is running, over the same transport as
 * the client (TLS when it uses TLS: the secret key is not sent in clear). Resolves once the
 * server has closed the cancel connection (it has signalled the backend by then), on any error,
 * or after `timeoutMs`, whichever comes first.
 */
export function sendCancelRequest(
  pg: typeof import('pg'),
  client: BackendKey,
  timeoutMs: number,
): Promise<void> {
  const { processID, secretKey } = client;
  if (processID === null || secretKey === null) return Promise.resolve();
  return new Promise((resolve) => {
    const con = new pg.Connection({
      ssl: client.ssl,
      sslNegotiation: client.sslNegotiation,
    } as ConstructorParameters<typeof pg.Connection>[0]) as CancelConnection;
    const done = () => {
      clearTimeout(timer);
      con.stream.destroy();
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    timer.unref();
    con.on('error', done);
    con.once('end', done);
    con.once('connect', () => {
      if (!client.ssl) con.cancel(processID, secretKey);
      // With direct TLS negotiation the upgrade starts by itself ('sslconnect' follows).
      else if (client.sslNegotiation !== 'direct') con.requestSsl();
    });
    con.once('sslconnect', () => con.cancel(processID, secretKey));
    if (client.host?.startsWith('/')) con.connect(`${client.host}/.s.PGSQL.${client.port}`);
    else con.connect(client.port, client.host);
  });
}
