import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assistantText, basesOf, prompt, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentIndex,
  openIndex,
  type SessionSort,
  type SessionSummary,
  sessionSorts,
  UNKNOWN_LAST,
} from '../index.js';

const here = dirname(fileURLToPath(import.meta.url));
const samples = resolve(here, '../../../cli/samples/claude-home');

let dir: string;
let index: AgentIndex;
/**
 * Beside the samples: a session of a model with no price (cost unknown), one of a prompt alone (wall time unknown),
 * one of a response alone (no title).
 */
let unknowns: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-page-'));
  unknowns = join(dir, 'unknowns');
  const unpriced = 'a1a1a1a1-0000-4000-8000-000000000001';
  const at = basesOf(unpriced);
  writeLines(join(unknowns, 'projects', '-p', `${unpriced}.jsonl`), [
    prompt(at('a1-u1', null, 1), 'Hello'),
    assistantText(at('a1-a1', 'a1-u1', 3), 'msg_a1', 'Hi.').replace('claude-opus-5-5', 'claude-nonesuch-9'),
  ]);
  const alone = 'b2b2b2b2-0000-4000-8000-000000000002';
  writeLines(join(unknowns, 'projects', '-p', `${alone}.jsonl`), [
    prompt(basesOf(alone)('b2-u1', null, 1), 'Anyone there?'),
  ]);
  // a response alone: no prompt, no title (the list's "Untitled session")
  const untitled = 'c3c3c3c3-0000-4000-8000-000000000003';
  writeLines(join(unknowns, 'projects', '-p', `${untitled}.jsonl`), [
    assistantText(basesOf(untitled)('c3-a1', null, 2), 'msg_c3', 'Done.'),
  ]);
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  await index.refresh([samples, unknowns]);
});
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

const key = (s: SessionSummary, sort: SessionSort): string | number => {
  const started = s.startedAt === undefined ? 0 : Date.parse(s.startedAt);
  switch (sort) {
    case 'startedAt':
      return started;
    case 'endedAt':
      return s.endedAt === undefined ? started : Date.parse(s.endedAt);
    case 'title':
      return (s.title ?? '').toLowerCase();
    case 'project':
      return s.projectPath ?? s.projectDir;
    case 'durationMs':
      return s.durationMs ?? -1;
    case 'messages':
      return s.messages;
    case 'toolCalls':
      return s.toolCalls;
    case 'errors':
      return s.errors - s.expectedErrors + (s.apiErrors ?? 0);
    case 'costUsd':
      return s.costUsd ?? -1;
    default:
      return sort satisfies never;
  }
};

describe('pageSessions', () => {
  it('pages, in every sort order, add up to the whole list in that order, unknown values last either way', () => {
    const paths = [samples, unknowns];
    const all = index.listSessions({ paths });
    expect(all.filter((s) => s.costUsd === null).length).toBeGreaterThan(0);
    expect(all.filter((s) => s.durationMs === undefined).length).toBeGreaterThan(0);
    expect(all.filter((s) => s.title === undefined).length).toBeGreaterThan(0);
    expect(all.length).toBeGreaterThan(6);
    for (const sort of sessionSorts) {
      for (const descending of [true, false]) {
        const pages: SessionSummary[] = [];
        for (let offset = 0; offset < all.length; offset += 4) {
          const page = index.pageSessions({ paths }, { offset, limit: 4, sort, descending });
          expect(page.total).toBe(all.length);
          expect(page.offset).toBe(offset);
          pages.push(...page.sessions);
        }
        const sign = descending ? -1 : 1;
        const expected = [...all].sort((a, b) => {
          const x = key(a, sort);
          const y = key(b, sort);
          // a cost or a wall time not known (-1), a title none (a review: "Untitled session" came first by title),
          // comes last whichever the direction
          const unknown = (s: SessionSummary, k: string | number) =>
            UNKNOWN_LAST.has(sort) ? k === -1 : sort === 'title' && s.title === undefined;
          if (unknown(a, x) !== unknown(b, y)) return unknown(a, x) ? 1 : -1;
          return (x < y ? -1 : x > y ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0) * sign;
        });
        expect(
          pages.map((s) => s.id),
          `${sort} ${descending ? 'desc' : 'asc'}`,
        ).toEqual(expected.map((s) => s.id));
        expect(pages).toEqual(expected);
      }
    }
  });

  it('sums over every selected session, not just the page, and honours the filter', () => {
    const all = index.listSessions({ paths: [samples] });
    const page = index.pageSessions({ paths: [samples] }, { limit: 1 });
    expect(page.sessions.length).toBe(1);
    expect(page.totals).toEqual({
      toolCalls: all.reduce((n, s) => n + s.toolCalls, 0),
      errors: all.reduce((n, s) => n + s.errors, 0),
      expectedErrors: all.reduce((n, s) => n + s.expectedErrors, 0),
      apiErrors: all.reduce((n, s) => n + (s.apiErrors ?? 0), 0),
      live: all.filter((s) => s.isLive).length,
    });
    const withErrors = index.pageSessions({ paths: [samples], hasErrors: true }, { limit: 1000 });
    expect(withErrors.sessions.map((s) => s.id).sort()).toEqual(
      all
        .filter((s) => s.errors > s.expectedErrors || (s.apiErrors ?? 0) > 0)
        .map((s) => s.id)
        .sort(),
    );
    expect(index.pageSessions({ paths: [samples] }, { offset: all.length, limit: 10 }).sessions).toEqual([]);
    const some = [all[0]!.id, all[3]!.id, 'no-such-session'];
    expect(
      index
        .pageSessions({ paths: [samples], ids: some }, { limit: 10 })
        .sessions.map((s) => s.id)
        .sort(),
    ).toEqual([all[0]!.id, all[3]!.id].sort());
    expect(index.listSessions({ ids: [] })).toEqual([]);
  });

  it('lists the distinct projects, models and versions', () => {
    const all = index.listSessions({ paths: [samples] });
    const distinct = (values: string[]) => [...new Set(values.filter((v) => v !== ''))].sort();
    expect(index.sessionFacets({ paths: [samples] })).toEqual({
      projects: distinct(all.map((s) => s.projectPath ?? s.projectDir)),
      models: distinct(all.flatMap((s) => [...s.models])),
      versions: distinct(all.flatMap((s) => [...s.versions])),
      agents: [
        {
          agent: 'claude',
          versions: distinct(all.flatMap((s) => [...s.versions])),
          models: distinct(all.flatMap((s) => [...s.models])),
          projects: distinct(all.map((s) => s.projectPath ?? s.projectDir)),
        },
      ],
    });
    expect(new Set(all.map((s) => s.agent))).toEqual(new Set(['claude']));
  });

  it('gives each agent its own models and projects (a Codex session uses no Claude model)', async () => {
    const codex = resolve(here, '../../../core/test/fixtures/codex/0.169.0/codex-home');
    await index.refresh([codex]);
    const paths = [samples, codex];
    const facets = index.sessionFacets({ paths });
    const all = index.listSessions({ paths });
    const of = (agent: string) => all.filter((s) => s.agent === agent);
    const distinct = (values: string[]) => [...new Set(values.filter((v) => v !== ''))].sort();
    expect(facets.agents.map((a) => [a.agent, a.models, a.projects])).toEqual(
      ['claude', 'codex'].map((agent) => [
        agent,
        distinct(of(agent).flatMap((s) => [...s.models])),
        distinct(of(agent).map((s) => s.projectPath ?? s.projectDir)),
      ]),
    );
    expect(facets.agents.find((a) => a.agent === 'codex')?.models?.some((m) => m.startsWith('claude'))).toBe(false);
    expect(facets.models).toEqual(distinct(all.flatMap((s) => [...s.models])));
  });
});
