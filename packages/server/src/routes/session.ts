/**
 * One session's routes: `GET /api/sessions/:id` (the header, from the index), `/events` (a page of a thread),
 * `/calls` (its calls as the index holds them: what a team server shows of a session shared below the full tier),
 * `/calls/:callId`, `/locate/:callId`, `/errors`, `/find`, `/waterfall`, `/files` and `/issues`.
 */
import type { SessionSummary } from '@agentdash/index';
import { Hono } from 'hono';
import type { CallsResponse, IssueDto, SessionDetail, SessionRow } from '../api-types.js';
import { type AppServices, ID } from '../app-services.js';
import { headerUsageByModel } from '../header-usage.js';
import { HttpError } from '../http-error.js';
import { toCallRow, toIssue, toSessionRow } from '../mapping.js';
import { type Answer, RawJson, sendJson } from '../raw-json.js';
import { hasMainFile } from '../session-outline.js';
import { query } from './query.js';
import { callQuery, eventsQuery, findQuery, sessionCallsQuery } from './schemas.js';

/**
 * The session's header from the index's stored rows, without parsing its transcript (issue 8: a 200 MB session's
 * header in well under a second): the same JSON as the loaded session's header (`SessionView.detail`).
 */
async function indexHeader(
  services: AppServices,
  found: SessionSummary,
  row: SessionRow,
): Promise<Answer<SessionDetail>> {
  const [parts, copiedFrom] = await Promise.all([
    services.queries.sessionHeader(row.id),
    services.queries.sessionCopies(row.id),
  ]);
  // a file of the session cannot be read now: the load says so (and what the other files hold)
  if (!parts) return services.sessions.detail(row);
  return {
    session: row,
    gitBranch: found.gitBranch || null,
    totalEvents: parts.totalEvents,
    mainFile: parts.mainFile ?? hasMainFile(found.files),
    subagents: parts.subagents,
    usageByModel: headerUsageByModel(found),
    counts: parts.counts,
    issues: parts.issues,
    toolCounts: parts.toolCounts,
    shells: parts.shells,
    copiedFrom,
  };
}

/** A call id of the path, or a 404. */
function callIdOf(raw: string): string {
  if (!ID.test(raw)) throw new HttpError(404, 'call not found');
  return raw;
}

export function sessionRoutes(services: AppServices) {
  const { sessions, summaryOf, shown } = services;
  return (
    new Hono()
      // The header comes from the index, never waiting for the session to be parsed (`?wait=1`, which older
      // clients send, is ignored).
      .get('/sessions/:id', async (c) => {
        const found = await services.foundOf(c.req.param('id'));
        const row = shown(toSessionRow(found));
        // kept like the lists until the index changes: tabs and clients opening one session ask for it once
        return sendJson(
          c,
          await services.listCache.get(`header\u0000${row.id}`, async () => {
            const header = await indexHeader(services, found, row);
            // from the session worker (made from the redacted session), else from the index's rows
            return header instanceof RawJson ? header : RawJson.of(shown(header));
          }),
        );
      })
      .get('/sessions/:id/events', query(eventsQuery), async (c) => {
        const row = await summaryOf(c.req.param('id'));
        const { offset, limit, agent, all } = c.req.valid('query');
        const page = await sessions.page(row.id, agent, offset, limit, all === true);
        if (!page) throw new HttpError(404, 'subagent not found');
        return sendJson(c, page);
      })
      .get('/sessions/:id/calls', query(sessionCallsQuery), async (c) => {
        const row = await summaryOf(c.req.param('id'));
        const { limit } = c.req.valid('query');
        const rows = await services.queries.calls({ sessionId: row.id, oldestFirst: true, limit });
        const body: CallsResponse = { calls: rows.map((r) => toCallRow(r, new Map([[row.id, row]]))) };
        return c.json(shown(body));
      })
      .get('/sessions/:id/calls/:callId', query(callQuery), async (c) => {
        const row = await summaryOf(c.req.param('id'));
        const { chars } = c.req.valid('query');
        const call = await sessions.call(row.id, callIdOf(c.req.param('callId')), chars);
        if (!call) throw new HttpError(404, 'call not found');
        return sendJson(c, call);
      })
      .get('/sessions/:id/locate/:callId', async (c) => {
        const row = await summaryOf(c.req.param('id'));
        const found = await sessions.locate(row.id, callIdOf(c.req.param('callId')));
        if (!found) throw new HttpError(404, 'call not found');
        return c.json(found);
      })
      .get('/sessions/:id/errors', async (c) => {
        const row = await summaryOf(c.req.param('id'));
        return c.json(await sessions.errors(row.id));
      })
      .get('/sessions/:id/find', query(findQuery), async (c) => {
        const row = await summaryOf(c.req.param('id'));
        return c.json(await sessions.find(row.id, c.req.valid('query').q ?? ''));
      })
      .get('/sessions/:id/waterfall', async (c) => {
        const row = await summaryOf(c.req.param('id'));
        return sendJson(c, await sessions.waterfall(row.id));
      })
      .get('/sessions/:id/files', async (c) => {
        const row = await summaryOf(c.req.param('id'));
        return sendJson(c, await sessions.files(row.id));
      })
      .get('/sessions/:id/issues', async (c) => {
        const row = await summaryOf(c.req.param('id'));
        // Files that cannot be read now and pairing's findings are not stored issues: taken from the load, each once
        // (a call id reused within one file is both; two results on one line are two), in file and line order, as
        // the header counts them
        const read = await sessions.readIssues(row.id);
        const stored = await services.queries.issues({ sessionId: row.id, limit: 5000 });
        const seen = new Set<string>();
        const issues: IssueDto[] = [...stored, ...read]
          .filter((i) => {
            const key = JSON.stringify([i.code, i.file, i.line, i.message]);
            if (seen.has(key)) return false;
            seen.add(key);
            return true;
          })
          .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line))
          .map(toIssue);
        return c.json(shown({ issues }));
      })
  );
}
