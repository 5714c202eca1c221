/**
 * Secret findings counted at index time (issue 12): per file and rule in a real SQLite index, summed per session,
 * updated when a file grows, and the secrets themselves never stored in the count table.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plantedSecrets } from '@agentdash/core/secrets/planted';
import {
  assistantText,
  nextSessionId,
  prompt,
  toolResult,
  toolUse,
  writeDemoHome,
  writeLines,
} from '@agentdash/testing/synthetic';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

const planted = plantedSecrets();
const byRule = (rule: string) => {
  const found = planted.find((p) => p.rule === rule);
  if (found === undefined) throw new Error(`no planted secret for ${rule}`);
  return found;
};

let dir: string;
let home: string;
let dbPath: string;
let index: AgentIndex;
let clean: string;
let leaky: string;
let leakyMain: string;

const base = (sessionId: string, n: number) => ({
  sessionId,
  uuid: `7${String(n).padStart(7, '0')}-0000-4000-8000-000000000000`,
  parentUuid: n === 1 ? null : `7${String(n - 1).padStart(7, '0')}-0000-4000-8000-000000000000`,
  timestamp: `2026-11-21T21:0${n}:00.000Z`,
});

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-secret-counts-'));
  home = join(dir, 'home');
  dbPath = join(dir, 'index.sqlite');
  clean = nextSessionId();
  writeDemoHome(home, { outputOnlyWord: 'alpha', subagentOnlyWord: 'beta' }, clean, 'clean');
  leaky = nextSessionId();
  leakyMain = writeDemoHome(home, { outputOnlyWord: 'gamma', subagentOnlyWord: 'delta' }, leaky, 'leaky').main;
  appendFileSync(
    leakyMain,
    `${[
      // A prompt with one GitHub token, a command with one Stripe key, its output with an .env assignment.
      prompt(base(leaky, 1), `clone it with ${byRule('github-token').text}`),
      toolUse(base(leaky, 2), 'msg_k1', 'toolu_secret_cmd', 'Bash', { command: byRule('stripe-key').text }),
      toolResult(base(leaky, 3), 'toolu_secret_cmd', byRule('env-assignment').text, false),
      assistantText(base(leaky, 4), 'msg_k2', 'Done, nothing else to see.'),
    ].join('\n')}\n`,
  );
  index = openIndex({ dbPath });
});
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

function countsOf(path: string): Record<string, number> {
  const db = new Database(dbPath, { readonly: true });
  try {
    const rows = db
      .prepare(
        'SELECT s.rule, s.count FROM secret_counts s JOIN files f ON f.id = s.file_id WHERE f.path = ? ORDER BY s.rule',
      )
      .all(path) as { rule: string; count: number }[];
    return Object.fromEntries(rows.map((r) => [r.rule, r.count]));
  } finally {
    db.close();
  }
}

describe('secret counts in the index', () => {
  it('counts each finding per file and rule, and sums them per session', async () => {
    await index.refresh([home]);
    expect(countsOf(leakyMain)).toEqual({ 'env-assignment': 1, 'github-token': 1, 'stripe-key': 1 });
    expect(index.getSession(leaky)?.secrets).toBe(3);
    expect(index.getSession(clean)?.secrets).toBe(0);
    const listed = Object.fromEntries(index.listSessions().map((s) => [s.id, s.secrets]));
    expect(listed).toEqual({ [clean]: 0, [leaky]: 3 });
  });

  it('never stores the secret itself in the count table', () => {
    const db = new Database(dbPath, { readonly: true });
    try {
      const text = JSON.stringify(db.prepare('SELECT * FROM secret_counts').all());
      expect(planted.filter((p) => text.includes(p.secret)).map((p) => p.rule)).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('adds the findings of appended lines, and keeps the count when nothing changed', async () => {
    await index.refresh([home]);
    expect(index.getSession(leaky)?.secrets).toBe(3);
    appendFileSync(leakyMain, `${prompt(base(leaky, 5), `and ${byRule('npm-token').text}`)}\n`);
    await index.refresh([home]);
    expect(countsOf(leakyMain)['npm-token']).toBe(1);
    expect(index.getSession(leaky)?.secrets).toBe(4);
    expect(index.getSession(clean)?.secrets).toBe(0);
  });
});

describe('secret counts: one per line and rule', () => {
  it('counts a line holding one secret twice once, and counts a secret in a title record', async () => {
    const twice = nextSessionId();
    const file = join(home, 'projects', '-home-user-proj-twice', `${twice}.jsonl`);
    const key = byRule('github-token').text;
    writeLines(file, [
      // The same token in the command and in its description: one line, one rule, one finding.
      toolUse(base(twice, 1), 'msg_t1', 'toolu_twice', 'Bash', { command: key, description: key }),
      toolResult(base(twice, 2), 'toolu_twice', 'ok', false),
      JSON.stringify({
        type: 'custom-title',
        customTitle: `deploy with ${byRule('stripe-key').text}`,
        sessionId: twice,
      }),
    ]);
    await index.refresh([home]);
    expect(countsOf(file)).toEqual({ 'github-token': 1, 'stripe-key': 1 });
    expect(index.getSession(twice)?.secrets).toBe(2);
  });

  it('does not count placeholder values (Go test fixtures, .env examples)', async () => {
    const fixture = nextSessionId();
    const file = join(home, 'projects', '-home-user-proj-fixture', `${fixture}.jsonl`);
    writeLines(file, [
      prompt(base(fixture, 1), 'auth := githttp.TokenAuth{Token: "source-token"} and DB_PASSWORD=CHANGE_ME_PLEASE'),
      assistantText(base(fixture, 2), 'msg_f1', 'Noted.'),
    ]);
    await index.refresh([home]);
    expect(index.getSession(fixture)?.secrets).toBe(0);
  });
});
