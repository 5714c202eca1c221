/**
 * The laptop's side of the team protocol over HTTP: each call sends one request (JSON bodies gzip-compressed),
 * reads the envelope, validates the answer with the contract and counts the bytes it sent.
 */
import { gzipSync } from 'node:zlib';
import { AgentDashError } from '@agentdash/core/base';
import type { z } from 'zod';
import { encodeChunks } from '../chunk-batch.js';
import {
  ChunkCheckResponse,
  ChunksResponse,
  type DeviceInfo,
  ManifestResponse,
  PAYLOAD_VERSION_HEADER,
  type PushSession,
  SessionsResponse,
  TEAM_PAYLOAD_VERSION,
  UnforgetResponse,
  WhoAmI,
} from '../contract.js';
import { TeamBadInputError } from '../errors.js';
import type { Chunk } from './chunks.js';

/**
 * Why a push stopped, with the HTTP status when the server answered (0: it could not be reached). Its code is
 * `TEAM_UNREACHABLE` (no answer, or a 5xx), `TEAM_REFUSED` (401, 403: the token) or `TEAM_REJECTED` (the push).
 */
export class PushError extends AgentDashError {
  constructor(
    message: string,
    readonly status: number,
    /** The team server's own code for the refusal (`TEAM_CHUNKS_MISSING`), when it answered one. */
    readonly serverCode?: string,
  ) {
    super(
      status === 401 || status === 403
        ? 'TEAM_REFUSED'
        : status === 0 || status >= 500
          ? 'TEAM_UNREACHABLE'
          : 'TEAM_REJECTED',
      message,
    );
  }
}

/**
 * A connection closed under a request (an idle kept-alive one the server dropped as it was reused, a proxy's reset):
 * the request is sent again on a new one, a few times. A refused connection is not: the server is not there.
 */
const DROPPED = new Set(['UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNRESET', 'EPIPE']);
const RETRIES = 3;
const RETRY_MS = 200;
/**
 * Answers that mean "later": a team server busy storing other pushes (503 with `Retry-After`), a proxy in front of
 * it (502, 504), or no answer before fetch's five-minute header timeout. Every request of a push is idempotent, so
 * it is sent again after the wait the server asked for (else a doubling one), until `busyBudgetMs` of waiting.
 */
const LATER = new Set([502, 503, 504]);
const SLOW = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** A TLS certificate signed by an authority this machine does not trust (Node's codes for it). */
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

/**
 * What to try, after the code of a connection to `url` that failed (none for the plain ones: refused, unknown host,
 * nor for connections dropped on an https address: a proxy's reset says nothing of the scheme).
 */
function hintFor(code: string, url: string): string {
  if (UNTRUSTED.has(code)) {
    return " (the server's TLS certificate is not trusted here: give its certificate authority with NODE_EXTRA_CA_CERTS=FILE)";
  }
  if (code === 'CERT_HAS_EXPIRED') return " (the server's TLS certificate has expired: its administrator renews it)";
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return " (the server's TLS certificate is for another name: use the name it was made for in the address)";
  }
  if (DROPPED.has(code) && url.startsWith('http:')) {
    return ' (the server closed every connection: does it speak https, and the address http?)';
  }
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'EPROTO') {
    return ' (no TLS there: does the server speak http, and the address https?)';
  }
  return '';
}
const BUSY_BUDGET_MS = 30 * 60_000;
const LONGEST_WAIT_MS = 60_000;
/** A server asking for no wait at all still gets only this many tries. */
const LATER_TRIES = 500;

export interface TeamClientOptions {
  readonly url: string;
  readonly token: string;
  /** For tests: another fetch. */
  readonly fetch?: typeof fetch;
  /** Wait before sending a dropped request again, times the attempt (default 200 ms). */
  readonly retryMs?: number;
  /** How long in all to keep sending again requests a busy server put off (default 30 min). */
  readonly busyBudgetMs?: number;
  /** Told each time a request is put off, why (the server's own words when it gave them) and for how long. */
  readonly onLater?: (why: string, waitMs: number) => void;
}

/** The team server's answer envelope (`{success, data}` or `{success: false, error, code}`); undefined if no JSON. */
function envelopeOf(text: string): { success?: unknown; data?: unknown; error?: unknown; code?: unknown } | undefined {
  try {
    return JSON.parse(text) as { success?: unknown; data?: unknown; error?: unknown; code?: unknown };
  } catch {
    return undefined;
  }
}

/** Why a request was put off, in words: the server's reason (a database it cannot reach), else its status. */
function laterWhy(status: number | undefined, envelope: { error?: unknown; code?: unknown } | undefined): string {
  if (envelope?.code === 'TEAM_DB_UNREACHABLE') return 'the team server cannot reach its database';
  if (status === undefined) return 'the team server is slow to answer';
  if (status === 503)
    return typeof envelope?.error === 'string'
      ? `the team server is busy (${envelope.error})`
      : 'the team server is busy';
  return `a proxy in front of the team server answered ${status}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The team API's base of a server address; a bad address is a bad argument (`TeamBadInputError`, exit 2), said before
 * any request, and before anything else is asked of the person (the token).
 */
export function teamApiBase(address: string): string {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new TeamBadInputError(
      `not a URL: ${address} (give the team server's address, e.g. https://team.example:4317)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TeamBadInputError(`the team server's URL must start with http:// or https://, got ${address}`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}/api/team/v1`;
}

export class TeamClient {
  /** Bytes sent in request bodies (as they went on the wire). */
  sentBytes = 0;
  requests = 0;
  /** Requests sent again because the server was busy or slow. */
  retried = 0;
  /** Why the last request put off was (`onLater`'s words). */
  lastLater: string | undefined;
  private readonly base: string;
  private readonly doFetch: typeof fetch;

  constructor(private readonly options: TeamClientOptions) {
    this.base = teamApiBase(options.url);
    this.doFetch = options.fetch ?? fetch;
  }

  whoami(): Promise<WhoAmI> {
    return this.call('GET', '/whoami', undefined, WhoAmI);
  }

  manifest(device: z.infer<typeof DeviceInfo>, sessions: readonly { uid: string; digest: string }[]) {
    return this.call('POST', '/push/manifest', { version: TEAM_PAYLOAD_VERSION, device, sessions }, ManifestResponse);
  }

  checkChunks(chunks: readonly string[]) {
    return this.call('POST', '/push/chunks/check', { version: TEAM_PAYLOAD_VERSION, chunks }, ChunkCheckResponse);
  }

  async putChunk(sha256: string, gz: Buffer): Promise<void> {
    await this.send('PUT', `/push/chunks/${sha256}`, gz, 'application/octet-stream', false);
  }

  /** Several chunks in one request (`POST /push/chunks`); a 404 from a server without the route is a PushError. */
  async putChunks(chunks: readonly Chunk[]) {
    const body = encodeChunks(chunks.map((c) => ({ sha256: c.sha256, bytes: c.gz })));
    return this.answer(
      '/push/chunks',
      await this.send('POST', '/push/chunks', body, 'application/octet-stream', false),
      ChunksResponse,
    );
  }

  sessions(sessions: readonly PushSession[]) {
    return this.call('POST', '/push/sessions', { version: TEAM_PAYLOAD_VERSION, sessions }, SessionsResponse);
  }

  async forget(uids: readonly string[], path = '/push/forget'): Promise<number> {
    const data = (await this.send('POST', path, this.json({ version: TEAM_PAYLOAD_VERSION, uids }))) as {
      forgotten?: unknown;
    };
    return typeof data?.forgotten === 'number' ? data.forgotten : 0;
  }

  /**
   * A forget naming each uid's session id (`push/forget-sessions`), so the server records it for a uid it never held.
   * A server without the route (404) is sent a forget of the uids.
   */
  async forgetSessions(sessions: readonly { uid: string; sessionId: string }[]): Promise<number> {
    try {
      const body = this.json({ version: TEAM_PAYLOAD_VERSION, sessions });
      const data = (await this.send('POST', '/push/forget-sessions', body)) as { forgotten?: unknown };
      return typeof data?.forgotten === 'number' ? data.forgotten : 0;
    } catch (error) {
      if (error instanceof PushError && error.status === 404) return await this.forget(sessions.map((s) => s.uid));
      throw error;
    }
  }

  /**
   * Removes headless runs' copies whose transcripts the server holds: deleted, not recorded forgotten (the person
   * forgot nothing). A server without the route (404) records no forget either: it is sent as a forget there.
   */
  async takeBack(uids: readonly string[]): Promise<number> {
    try {
      return await this.forget(uids, '/push/take-back');
    } catch (error) {
      if (error instanceof PushError && error.status === 404) return await this.forget(uids);
      throw error;
    }
  }

  /** The uids of `uids` the server held forgotten and now clears; none from a server that keeps no record (404). */
  async unforget(uids: readonly string[]): Promise<string[]> {
    try {
      const body = { version: TEAM_PAYLOAD_VERSION, uids };
      return (await this.call('POST', '/push/unforget', body, UnforgetResponse)).unforgotten;
    } catch (error) {
      if (error instanceof PushError && error.status === 404) return [];
      throw error;
    }
  }

  /** How long to wait before sending again a request put off `later` times, or undefined once the budget is spent. */
  private laterWait(later: number, retryAfter: string | null | undefined, waited: number): number | undefined {
    const asked = retryAfter ? Number(retryAfter) * 1000 : Number.NaN;
    const base = this.options.retryMs ?? RETRY_MS;
    const wait = Math.min(LONGEST_WAIT_MS, Number.isFinite(asked) && asked >= 0 ? asked : base * 2 ** (later + 2));
    const budget = this.options.busyBudgetMs ?? BUSY_BUDGET_MS;
    return budget <= 0 || later >= LATER_TRIES || waited + wait > budget ? undefined : wait;
  }

  private json(body: unknown): Buffer {
    return gzipSync(Buffer.from(JSON.stringify(body), 'utf8'));
  }

  private async call<T extends z.ZodType>(method: string, path: string, body: unknown, schema: T): Promise<z.infer<T>> {
    return this.answer(path, await this.send(method, path, body === undefined ? undefined : this.json(body)), schema);
  }

  /** The answer's data as `schema` has it, else a PushError. */
  private answer<T extends z.ZodType>(path: string, data: unknown, schema: T): z.infer<T> {
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      throw new PushError(
        `the team server's answer to ${path} is not what this agentdash expects: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
        502,
      );
    }
    return parsed.data;
  }

  private async send(
    method: string,
    path: string,
    body: Buffer | undefined,
    type = 'application/json',
    gzipped = true,
  ): Promise<unknown> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.token}`,
      [PAYLOAD_VERSION_HEADER]: String(TEAM_PAYLOAD_VERSION),
      accept: 'application/json',
    };
    if (body !== undefined) {
      headers['content-type'] = type;
      if (gzipped) headers['content-encoding'] = 'gzip';
    }
    let response: Response | undefined;
    let waited = 0;
    for (let attempt = 0, later = 0; response === undefined; attempt += 1) {
      // how long to wait before sending it again, when the server was busy or slow
      let wait: number | undefined;
      try {
        response = await this.doFetch(this.base + path, {
          method,
          headers,
          ...(body ? { body: new Uint8Array(body) } : {}),
        });
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        const code = cause?.code ?? '';
        // every request of a push is idempotent: one sent on a connection the server had just closed is sent again
        if (attempt < RETRIES && DROPPED.has(code)) {
          await sleep((this.options.retryMs ?? RETRY_MS) * (attempt + 1));
          continue;
        }
        wait = SLOW.has(code) ? this.laterWait(later, undefined, waited) : undefined;
        if (wait === undefined) {
          const what = code || cause?.message || String(error);
          throw new PushError(
            `cannot reach the team server at ${this.options.url}: ${what}${hintFor(code, this.base)}`,
            0,
          );
        }
      }
      let why = laterWhy(undefined, undefined);
      if (response !== undefined && LATER.has(response.status)) {
        wait = this.laterWait(later, response.headers.get('retry-after'), waited);
        if (wait !== undefined) {
          // its reason, from the answer's small envelope (a proxy's page is no JSON: its status says it)
          why = laterWhy(response.status, envelopeOf(await response.text().catch(() => '')));
          response = undefined;
        }
      }
      if (wait !== undefined) {
        this.lastLater = why;
        this.options.onLater?.(why, wait);
        later += 1;
        waited += wait;
        this.retried += 1;
        await sleep(wait);
      }
    }
    this.requests += 1;
    this.sentBytes += body?.byteLength ?? 0;
    const envelope = envelopeOf(await response.text());
    if (response.ok && envelope?.success === true) return envelope.data;
    const reason =
      typeof envelope?.error === 'string' ? envelope.error : `HTTP ${response.status} ${response.statusText}`;
    if (response.status === 401) {
      throw new PushError(`the team server refused the token (${reason}): ask for a new device token`, 401);
    }
    // every team server answers who a token is: a 404 there is another server (a laptop's own dashboard, a path
    // added to the address), not one that refused the push
    if (response.status === 404 && path === '/whoami') {
      throw new PushError(
        `${this.options.url} is not an AgentDash team server (it answered 404 to ${this.base}/whoami): check the address's host, port and path (agentdash serve --team prints it)`,
        0,
      );
    }
    throw new PushError(
      `the team server answered ${response.status} to ${method} ${path}: ${reason}`,
      response.status,
      typeof envelope?.code === 'string' ? envelope.code : undefined,
    );
  }
}
