import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { redactIdentifiers } from '@agentdash/core/secrets';
import {
  DEFAULT_SEARCH_LIMIT,
  HIGHLIGHT_END,
  HIGHLIGHT_START,
  MAX_DOC_CHARS,
  type SearchKind,
  searchKinds,
} from '@agentdash/index';
import { agentArg, agentOption, positiveInt, str, timeWindow } from '../args.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { formatCount, formatDateTime, terminalText } from '../format.js';
import type { SearchJson } from '../output/json-types.js';
import {
  AGENT_HELP,
  COMMON_HELP,
  type CommandSpec,
  cutToLimit,
  PATHS_HELP,
  PROJECT_HELP,
  writeJson,
} from './common.js';
import { refsNamingOne } from './session-refs.js';
import { noteUnmatchedProject } from './usage-model-note.js';

const HL = new RegExp(`${HIGHLIGHT_START}([^${HIGHLIGHT_END}]*)${HIGHLIGHT_END}`, 'g');

/**
 * A snippet on one line with its matches marked: the index's highlight markers are control characters, so the text
 * between them is made terminal-safe piece by piece, and only then are the matches coloured.
 */
function highlighted(snippet: string, mark: (text: string) => string): string {
  const safe = (text: string) => terminalText(text).replace(/\s+/g, ' ');
  let out = '';
  let from = 0;
  for (const match of snippet.matchAll(HL)) {
    out += safe(snippet.slice(from, match.index)) + mark(safe(match[1] ?? ''));
    from = match.index + match[0].length;
  }
  return out + safe(snippet.slice(from));
}

const SEARCHED = formatCount(MAX_DOC_CHARS);

export const searchCommand: CommandSpec = {
  name: 'search',
  usage: 'agentdash search QUERY [PATH…] [--project P] [--tool T] [--since WHEN] [--kind K] [--json]',
  summary: 'full-text search over prompts, replies, thinking, tool inputs and outputs, notes',
  help: `Every word must occur (in any order); "quoted words" must occur together; word* matches a prefix. Searches
prompts, assistant text, thinking, tool inputs and tool outputs of all sessions and their subagents, and the notes
their timelines show (slash commands, what they printed, compaction summaries). Hits are ranked (bm25) and show
session, time, tool and a snippet. Each text is searched in its first ${SEARCHED} characters: the rest of a longer
one (a huge tool output) is not (\`show\` and the dashboard's find in a session read it whole).

${PATHS_HELP}

Filters:
${PROJECT_HELP}
${AGENT_HELP}
  --tool NAME      only inputs/outputs of this tool
  --since WHEN     only text written at or after WHEN
  --kind KIND      ${searchKinds.slice(0, -1).join(', ')} or ${searchKinds.at(-1)}
  --limit N        at most N hits (default 50)

${COMMON_HELP}`,
  options: {
    ...agentOption,
    project: { type: 'string' },
    tool: { type: 'string' },
    since: { type: 'string' },
    kind: { type: 'string' },
    limit: { type: 'string' },
  },
  async run(ctx, positionals) {
    const [query, ...rest] = positionals;
    if (query === undefined || query.trim() === '') throw new UsageError('search needs a QUERY');
    const kind = str(ctx.values, 'kind');
    if (kind !== undefined && !(searchKinds as readonly string[]).includes(kind)) {
      throw new UsageError(`--kind must be one of ${searchKinds.join(', ')}`);
    }
    const { since } = timeWindow(ctx.values, ctx.io.now());
    const limit = positiveInt(ctx.values, 'limit') ?? DEFAULT_SEARCH_LIMIT;
    const project = str(ctx.values, 'project');
    const tool = str(ctx.values, 'tool');
    const agent = agentArg(ctx.values);
    await wordsAsPaths(ctx, query, rest);
    const paths = await ctx.resolvePaths(rest);
    await ctx.refresh(paths);
    // Titles and project paths of the hits with their secrets redacted (docs/secrets.md); snippets as they are.
    // one hit more than asked, to tell whether there are more
    const found = redactIdentifiers(
      await (await ctx.openIndex()).search(query, {
        paths,
        ...agent,
        ...(project !== undefined ? { project } : {}),
        ...(tool !== undefined ? { tool } : {}),
        ...(since !== undefined ? { since } : {}),
        ...(kind !== undefined ? { kind: kind as SearchKind } : {}),
        limit: limit + 1,
      }),
    );
    const { items: hits, truncated, more } = cutToLimit(found, limit);
    if (hits.length === 0 && project !== undefined) {
      // no hit because no session is of that project: say so, and name the projects here
      const scope = { paths, ...agent, project };
      const ofProject = (await ctx.openIndex()).listSessions({ ...scope, limit: 1 }).length;
      await noteUnmatchedProject(ctx, scope, ofProject);
    }
    if (ctx.json) {
      const out: SearchJson = { query, hits, truncated };
      writeJson(ctx, out);
      return;
    }
    if (hits.length === 0) {
      ctx.io.stdout.write(
        `No matches for ${JSON.stringify(query)} (each text is searched in its first ${SEARCHED} characters).\n`,
      );
      return;
    }
    const c = ctx.color;
    // each session as `sessions` names it (what `show` takes), each call by its id (what `show --call` takes)
    const short = refsNamingOne(
      await ctx.openIndex(),
      hits.map((hit) => hit.sessionRef),
    );
    for (const hit of hits) {
      const call = hit.callId === undefined ? '' : ` ${hit.callId}`;
      const where = terminalText(hit.tool ? `${hit.kind} ${hit.tool}${call}` : hit.kind);
      const agent = hit.agentId ? c.magenta(terminalText(` [subagent ${hit.agentId}]`)) : '';
      const snippet = highlighted(hit.snippet, (text) => c.bold(c.yellow(text)));
      ctx.io.stdout.write(
        `${c.cyan(terminalText(short.get(hit.sessionRef) ?? hit.sessionRef))}  ${formatDateTime(hit.timestamp)}  ${c.dim(where)}${agent}  ${terminalText(
          hit.projectPath ?? '',
        )}\n    ${snippet}\n`,
      );
    }
    ctx.io.stdout.write(`${hits.length} hit${hits.length === 1 ? '' : 's'}${more}\n`);
  },
};

/**
 * A QUERY of several words written unquoted reads its later words as PATHs: when none of them is there, nor looks
 * like a path, the message says to quote them (a usage mistake, exit 2), not only that "tool" is no such file. A
 * folder deleted whole whose sessions the archive keeps is a path (`search word wd` after `rm -rf wd`).
 */
async function wordsAsPaths(ctx: Context, query: string, rest: readonly string[]): Promise<void> {
  if (rest.length === 0 || rest.some((p) => /[\\/~.]/.test(p) || existsSync(p))) return;
  for (const p of rest) if (await ctx.hasArchivedFilesUnder(resolve(p))) return;
  throw new UsageError(
    `no such file or directory: ${rest[0]}: to search for several words, quote them: agentdash search "${[query, ...rest].join(' ')}"`,
  );
}
