import { describe, expect, it } from 'vitest';
import { lostDatabaseReason } from './db.js';

/** An error as Node or postgres.js makes it: a message and the fields given. */
const error = (fields: Record<string, unknown>) => Object.assign(new Error('x'), fields);

describe('lostDatabaseReason', () => {
  it("names the database's connection failures, which pass: a 503", () => {
    expect(lostDatabaseReason(error({ code: 'ECONNREFUSED', syscall: 'connect' }))).toBe('connection refused');
    expect(lostDatabaseReason(error({ code: 'ECONNRESET', syscall: 'read' }))).toBe('connection reset');
    expect(lostDatabaseReason(error({ code: 'CONNECTION_CLOSED' }))).toBe('connection closed');
    expect(lostDatabaseReason(error({ code: '57P01', severity: 'FATAL' }))).toBe('shut down by its administrator');
  });

  it("takes no client's dropped request, nor a refusal that does not pass, for one", () => {
    // Node's error for a request body cut short by its client: ECONNRESET without a socket call (before: a 503
    // logged as 'PostgreSQL cannot be reached')
    expect(lostDatabaseReason(error({ code: 'ECONNRESET' }))).toBeUndefined();
    // a login refused or a database gone: until someone acts (before: a 503 a push waited on for 30 minutes)
    for (const code of ['28P01', '28000', '3D000']) expect(lostDatabaseReason(error({ code }))).toBeUndefined();
    expect(lostDatabaseReason(error({ code: '57014' }))).toBeUndefined();
    expect(lostDatabaseReason(new Error('x'))).toBeUndefined();
    expect(lostDatabaseReason(undefined)).toBeUndefined();
  });
});
