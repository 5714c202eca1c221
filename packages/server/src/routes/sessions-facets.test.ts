import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentIds } from '@agentdash/core/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOver, SAMPLES, type TestApp } from '../../test/app-harness.js';
import type { SessionsResponse } from '../api-types.js';

/** Three agents: the Claude Code samples, three Codex versions (`0.50.0`, `0.98.0`, `0.169.0`: text puts the last
 * first) and two Gemini CLI versions. */
const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '../../../core/test/fixtures');
const homes = [
  SAMPLES,
  ...['0.50.0', '0.98.0', '0.169.0'].map((v) => join(fixtures, 'codex', v, 'codex-home')),
  ...['0.61.0', '0.20.2'].map((v) => join(fixtures, 'gemini', v, '.gemini')),
];

let t: TestApp;
beforeAll(async () => {
  t = await appOver(homes);
});
afterAll(() => t.close());

/** Whether `list` is in the order of its numbers, part by part (`1.0.51` before `1.0.128`). */
function inNumberOrder(list: readonly string[]): boolean {
  const numbers = (v: string) => v.split(/\D+/).map(Number);
  return list.every((v, i) => {
    if (i === 0) return true;
    const [a, b] = [numbers(list[i - 1] ?? ''), numbers(v)];
    const at = a.findIndex((n, k) => n !== b[k]);
    return at < 0 || (b[at] ?? 0) > (a[at] ?? 0);
  });
}

describe("GET /api/sessions's facets", () => {
  it("name each agent that has a session once, in the registry's order, with its sessions' versions", async () => {
    const body = await t.json<SessionsResponse>('/api/sessions?limit=1000');
    expect(body.sessions).toHaveLength(body.total);
    const expected = new Map<string, Set<string>>();
    for (const s of body.sessions) {
      const versions = expected.get(s.agent) ?? new Set<string>();
      for (const v of s.versions) versions.add(v);
      expected.set(s.agent, versions);
    }
    expect([...expected.keys()].sort()).toEqual(['claude', 'codex', 'gemini']);
    expect(body.facets.agents.find((a) => a.agent === 'codex')?.versions).toEqual(['0.50.0', '0.98.0', '0.169.0']);
    expect(new Map(body.facets.agents.map((a) => [a.agent, new Set(a.versions)]))).toEqual(expected);
    expect(body.facets.agents.map((a) => a.agent)).toEqual(agentIds.filter((id) => expected.has(id)));
    // every version once, in the order of its numbers, overall and per agent
    expect(new Set(body.facets.versions)).toEqual(new Set(body.facets.agents.flatMap((a) => a.versions)));
    expect(body.facets.versions).toHaveLength(new Set(body.facets.versions).size);
    expect(inNumberOrder(body.facets.versions)).toBe(true);
    for (const a of body.facets.agents) expect(inNumberOrder(a.versions)).toBe(true);
  });

  it("are the whole list's whatever the filter: another agent stays choosable from one", async () => {
    const all = await t.json<SessionsResponse>('/api/sessions?limit=1');
    const one = all.facets.agents[0]?.agent ?? '';
    const filtered = await t.json<SessionsResponse>(`/api/sessions?limit=1&agent=${one}`);
    expect(filtered.total).toBeLessThan(all.total);
    expect(filtered.facets).toEqual(all.facets);
  });
});

describe('inNumberOrder (the check above)', () => {
  it('tells text order from number order', () => {
    expect(inNumberOrder(['1.0.51', '1.0.128', '2.0.9', '2.0.10'])).toBe(true);
    expect(inNumberOrder(['1.0.128', '1.0.51'])).toBe(false);
  });
});
