// The bench's `serve` stages: first answers on an empty database, append → SSE event on the warm one, and the big
// session (cold index, show --json, its header over HTTP).
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { agentdash, check, mb, ms, percentile, row, startServe, until } from './process.mjs';

/** `serve` on an empty database: first HTTP answer, first sessions listed (`home`: `buildHome`'s). */
export async function serveEmpty(home, work) {
  const serve = startServe([home.home, '--db', join(work, 'empty.sqlite')]);
  const { url } = await serve.url;
  const first = await until(async () =>
    (await fetch(`${url}/api/health`)).status < 500 ? performance.now() : undefined,
  );
  const listed = await until(async () => {
    const body = await (await fetch(`${url}/api/sessions?limit=50`)).json();
    return (body.sessions?.length ?? 0) > 0 ? performance.now() : undefined;
  });
  const rss = await serve.stop();
  row('`serve`, empty database: first HTTP answer', ms(first - serve.t0), `peak RSS ${mb(rss)}`);
  row('`serve`, empty database: first sessions listed', ms(listed - serve.t0));
}

/** Append → SSE event, on the warm database `db` of `home` (`buildHome`'s). */
export async function appendToEvent(home, work, db) {
  const appendHome = join(work, 'append-home');
  const sessionFile = join(appendHome, 'projects', '-bench-append', '00000000-0000-4000-a000-000000000001.jsonl');
  mkdirSync(dirname(sessionFile), { recursive: true });
  const template = JSON.stringify({
    type: 'user',
    uuid: '',
    parentUuid: null,
    sessionId: '00000000-0000-4000-a000-000000000001',
    timestamp: new Date().toISOString(),
    cwd: '/bench',
    message: { role: 'user', content: 'appended prompt' },
  });
  const line = (i) =>
    `${template.replace('"uuid":""', `"uuid":"00000000-0000-4000-b000-${String(i).padStart(12, '0')}"`)}\n`;
  writeFileSync(sessionFile, line(0));
  const serve = startServe([home.home, appendHome, '--db', db]);
  const { url } = await serve.url;
  const controller = new AbortController();
  const response = await fetch(`${url}/api/events`, { signal: controller.signal });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const nextEvent = async () => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: ?(.*)$/m.exec(event)?.[1];
        // Only the appended session's own update counts (the first start also sends list updates while it indexes).
        if (data && /"type":"session-updated"/.test(data) && data.includes('00000000-0000-4000-a000-000000000001'))
          return;
        continue;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('SSE closed');
      buffer += decoder.decode(value, { stream: true });
    }
  };
  // Wait for the background first refresh to finish, so that appends are timed against a ready server.
  for (let tries = 0; tries < 600; tries++) {
    const health = await (await fetch(`${url}/api/health`)).json();
    if (health.index?.state === 'ready') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await new Promise((r) => setTimeout(r, 1500));
  buffer = '';
  let next = 1;
  /** 20 appends, each `gapMs` after the event of the one before: the latencies of the 20 (a first one unmeasured). */
  const series = async (gapMs) => {
    const latencies = [];
    for (let i = 0; i <= 20; i++, next++) {
      const t0 = performance.now();
      appendFileSync(sessionFile, line(next));
      await Promise.race([
        nextEvent(),
        new Promise((_, fail) => setTimeout(() => fail(new Error('no SSE event in 10 s')), 10_000)),
      ]);
      if (i > 0) latencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, gapMs));
      buffer = '';
    }
    return latencies;
  };
  // The server starts at most one refresh a second (live.ts, `minIntervalMs`): an append 1.1 s after the last event
  // meets none of that wait, one 300 ms after it waits for its turn (a steady stream of records, by design).
  const alone = await series(1100);
  const stream = await series(300);
  controller.abort();
  const rss = await serve.stop();
  row(
    'append → SSE event, an append alone',
    `p50 ${ms(percentile(alone, 50))}, p95 ${ms(percentile(alone, 95))}`,
    `20 appends, each 1.1 s after the last event; serve peak RSS ${mb(rss)}`,
  );
  row(
    'append → SSE event, appends 300 ms apart',
    `p50 ${ms(percentile(stream, 50))}, p95 ${ms(percentile(stream, 95))}`,
    '20 appends; at most one refresh a second, by design (live.ts)',
  );
}

/** The big session (`buildBigSession`'s): cold index, show --json, the dashboard's session header. */
export async function bigSession(big, work) {
  const bigDb = join(work, 'big.sqlite');
  const indexed = check(await agentdash(['index', big.home, '--db', bigDb, '--json']), 'index big');
  row(`cold \`index\` of one ${mb(big.bytes)} session`, ms(indexed.ms), `peak RSS ${mb(indexed.rss)}`);
  const shownFile = join(work, 'show.json');
  const shown = await agentdash(['show', big.sessionId, big.home, '--db', bigDb, '--json'], {
    stdoutFile: shownFile,
  });
  // Checked with jq (a stream of that size is more than one JavaScript string can hold).
  let valid = 'valid JSON';
  let callCount = '';
  try {
    const count = execFileSync('jq', ['(.calls // .session.calls // []) | length', shownFile], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    callCount = `, ${count.trim()} calls`;
  } catch (error) {
    valid = `not checked or not valid JSON (${String(error).split('\n')[0].slice(0, 80)})`;
  }
  rmSync(shownFile, { force: true });
  row(
    `\`show --json\` of the ${mb(big.bytes)} session`,
    shown.code === 0 ? ms(shown.ms) : `exit ${shown.code}`,
    `${mb(shown.bytes)} out, ${valid}${callCount}; peak RSS ${mb(shown.rss)}${shown.code === 0 ? '' : `; ${shown.stderr.trim().slice(0, 120)}`}`,
  );
  const serve = startServe([big.home, '--db', bigDb]);
  const { url } = await serve.url;
  const t0 = performance.now();
  const res = await fetch(`${url}/api/sessions/${big.sessionId}`);
  const body = await res.json();
  const header = performance.now() - t0;
  const rss = await serve.stop();
  // a `pending` header (older builds) lacks the events, subagents and shells the full one has
  const kind = body.pending === true ? 'pending header' : `full header, ${body.totalEvents} events`;
  row(
    `\`GET /api/sessions/:id\` of the ${mb(big.bytes)} session`,
    ms(header),
    `HTTP ${res.status}, ${kind}, asked as soon as \`serve\` listens (its threads still starting); serve peak RSS ${mb(rss)}`,
  );
  // The same on a server that has started: its index is ready (what a user who opens the dashboard, then the
  // session, meets).
  const settled = startServe([big.home, '--db', bigDb]);
  const at = (await settled.url).url;
  await until(async () => {
    const health = await (await fetch(`${at}/api/health`)).json();
    return (health.data ?? health).index?.state === 'ready' ? true : undefined;
  });
  await (await fetch(`${at}/api/sessions?limit=50`)).json();
  const t1 = performance.now();
  const res2 = await fetch(`${at}/api/sessions/${big.sessionId}`);
  await res2.json();
  const header2 = performance.now() - t1;
  await settled.stop();
  row(
    `\`GET /api/sessions/:id\` of the ${mb(big.bytes)} session, server started`,
    ms(header2),
    `HTTP ${res2.status}; after its index is ready and the sessions list answered`,
  );
}
