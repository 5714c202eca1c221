import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { usageByModel } from '../../session/load-session.js';
import { dedupeResponses } from '../../usage/dedupe.js';
import { foldedTurnsOf } from './records.js';
import { home020, home061, readGeminiPath } from './test-helpers.js';

/** The bundled 0.20.2 documents by scenario (the `[[rec:<scenario>]]` tag of their first prompt). */
async function byScenario(): Promise<Map<string, Awaited<ReturnType<typeof readGeminiPath>>>> {
  const out = new Map<string, Awaited<ReturnType<typeof readGeminiPath>>>();
  const tmp = join(home020, 'tmp');
  for (const project of readdirSync(tmp)) {
    const chats = join(tmp, project, 'chats');
    for (const name of readdirSync(chats)) {
      const read = await readGeminiPath(join(chats, name));
      const first = read.records.find((r) => r.kind === 'user');
      const text = first?.kind === 'user' && typeof first.content === 'string' ? first.content : '';
      const scenario = /\[\[rec:([\w-]+)\]\]/.exec(text)?.[1];
      if (scenario !== undefined) out.set(scenario, read);
    }
  }
  return out;
}

describe("Gemini 0.20's turns folded into the message before them", () => {
  // Responses the scripted API served per scenario (corpus-agents/gemini/0.20.2/truth.jsonl, `kind: script`): 50,
  // where the files hold 27 messages.
  const served = { parallel: 3, edit: 7, misc: 7, web: 4, files: 7, multi: 5, mcp: 5, shell: 6, thoughts: 3, api: 3 };

  it('are each a response, so that a session counts as many as were served', async () => {
    const sessions = await byScenario();
    const counted: Record<string, number> = {};
    const recorded: Record<string, number> = {};
    for (const scenario of Object.keys(served)) {
      const read = sessions.get(scenario);
      if (read === undefined) throw new Error(`no bundled ${scenario} session`);
      counted[scenario] = Object.values(usageByModel(read.records)).reduce((n, t) => n + t.responses, 0);
      recorded[scenario] = new Set(
        read.records.flatMap((r) => (r.kind === 'assistant' && r.usage ? [r.messageId] : [])),
      ).size;
    }
    expect(counted).toEqual(served);
    // before: each message one response, the turns folded into it none
    expect(Object.values(recorded).reduce((a, b) => a + b, 0)).toBe(27);
  });

  it("leaves the message's own tokens as written, the folded turns' unknown (a lower bound)", async () => {
    const read = (await byScenario()).get('parallel');
    const usage = (read?.records ?? []).flatMap((r) =>
      r.kind === 'assistant' && r.usage
        ? [
            {
              messageId: r.messageId,
              model: r.model,
              requestId: undefined,
              timestampMs: 0,
              isSynthetic: false,
              tokens: { ...r.usage, reasoningOutputTokens: 0 },
              turnsUnrecorded: r.usage.turnsUnrecorded,
              context: undefined,
            },
          ]
        : [],
    );
    const responses = dedupeResponses(usage).map((r) => [
      r.tokens.inputTokens > 0,
      r.inputUnrecorded,
      r.outputUnrecorded,
    ]);
    expect(responses).toEqual([
      [true, undefined, undefined],
      [false, true, true],
      [true, undefined, undefined],
    ]);
  });

  it('are not looked for in 0.61, which writes each response as its own message', async () => {
    const chats = join(home061, 'tmp');
    let calls = 0;
    for (const project of readdirSync(chats)) {
      const dir = join(chats, project, 'chats');
      let names: string[] = [];
      try {
        names = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
      } catch {
        continue;
      }
      for (const name of names) {
        const { records } = await readGeminiPath(join(dir, name));
        for (const r of records) {
          if (r.kind !== 'assistant') continue;
          expect(r.usage?.turnsUnrecorded).toBeUndefined();
          calls += r.content.filter((b) => b.kind === 'tool-use').length;
        }
      }
    }
    expect(calls).toBeGreaterThan(10);
  });

  // A review: a call id without an epoch (`run_shell_command-1`, a fixture's) started at the message's time, which may
  // come after the first call completed: a turn counted that did not happen.
  it('are told only by calls whose id says when they were named', () => {
    const at = (ms: number) => new Date(Date.parse('2026-11-23T00:29:01.000Z') + ms).toISOString();
    const message = at(10) as Parameters<typeof foldedTurnsOf>[1];
    const call = (id: string, done: number) => ({ id, timestamp: at(done) });
    expect(
      foldedTurnsOf([call('google_web_search-1795393740995-a', 5), call('run_shell_command-1', 20)], message),
    ).toBe(0);
    // named after the first completed: a later turn's
    const first = Date.parse(at(0));
    expect(foldedTurnsOf([call(`read_file-${first}-a`, 5), call(`read_file-${first + 8}-b`, 9)], message)).toBe(1);
  });
});
