/**
 * One reading of a transcript's secrets: what `agentdash secrets` finds, what the index counts and what exports
 * redact are the same secrets, also where the rules cannot read them in a line as written: a value named by its key
 * in a tool's input (`{ "password": "…" }`) and a secret inside JSON held in a string (a Codex-style tool output).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { redactSession } from '@agentdash/core/secrets';
import { plantedSecrets } from '@agentdash/core/secrets/planted';
import { openIndex } from '@agentdash/index';
import { assistantText, basesOf, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { afterAll, expect, it } from 'vitest';
import { scanFile } from './secret-scan.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-secrets-agree-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SESSION = '5ec0e7a1-0000-4000-8000-00000000a9e3';
const NAMED = 'Qw8zKp7x9Lm2';
const NESTED = 'Hx7pQ2mZ9wLk';

it('agentdash secrets, the index and an export see the same secrets, named by a key or held in inner JSON', async () => {
  const github = plantedSecrets().find((p) => p.rule === 'github-token');
  const at = basesOf(SESSION);
  const home = join(dir, 'home');
  const file = join(home, 'projects', '-home-user-proj-demo', `${SESSION}.jsonl`);
  const output = JSON.stringify({ output: `export DB_PASSWORD="${NESTED}"\n`, metadata: { exit_code: 0 } });
  writeLines(file, [
    prompt(at('10000000-0000-4000-8000-000000000001', null, 1), `clone it with ${github?.text}`),
    toolUse(
      at('10000000-0000-4000-8000-000000000002', '10000000-0000-4000-8000-000000000001', 2),
      'msg_1',
      'toolu_db',
      'mcp__db__connect',
      {
        user: 'bob',
        password: NAMED,
      },
    ),
    toolResult(
      at('10000000-0000-4000-8000-000000000003', '10000000-0000-4000-8000-000000000002', 3),
      'toolu_db',
      output,
      false,
    ),
    assistantText(
      at('10000000-0000-4000-8000-000000000004', '10000000-0000-4000-8000-000000000003', 4),
      'msg_2',
      'Done.',
    ),
  ]);

  const found = (await scanFile(file)).map((f) => `${f.line} ${f.rule}`);
  expect(found).toEqual(['1 github-token', '2 json-secret-field', '3 env-assignment']);

  const index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  try {
    await index.refresh([home]);
    expect(index.getSession(SESSION)?.secrets).toBe(found.length);
    const { session, report } = redactSession(await index.loadSession(SESSION));
    expect(Object.keys(report.toJSON().byRule).sort()).toEqual(['env-assignment', 'github-token', 'json-secret-field']);
    const exported = JSON.stringify(session);
    for (const secret of [NAMED, NESTED, github?.secret ?? '?']) expect(exported).not.toContain(secret);
  } finally {
    index.close();
  }
});

it("agentdash secrets and the index see the same secrets in a JSON document written over lines (Gemini's)", async () => {
  const fixture = join(
    import.meta.dirname,
    '../../core/test/fixtures/gemini/0.20.2/.gemini/tmp/f4f6bad382ed47dc0e58598308381b279847d331a1df813ffe31c71b25454f17/chats/session-2026-11-23T00-28-504fcd6d.json',
  );
  const doc = JSON.parse(readFileSync(fixture, 'utf8')) as { messages: { type: string; content: unknown }[] };
  const first = doc.messages[0];
  if (first === undefined) throw new Error('fixture without messages');
  // escaped in the file as written (`password=\"…\"`): no rule sees it in the line
  first.content = 'connect with password="GEMprompt55Zz" then DB_PASSWORD="GEMdbpw1234Xq"';
  const file = join(
    dir,
    'gemini',
    '.gemini/tmp/f4f6bad382ed47dc0e58598308381b279847d331a1df813ffe31c71b25454f17/chats/session-2026-11-23T00-28-504fcd6d.json',
  );
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(doc, null, 2));
  const found = (await scanFile(file)).map((f) => f.rule);
  expect(found.length).toBeGreaterThan(0);
  const index = openIndex({ dbPath: join(dir, 'gemini.sqlite') });
  try {
    await index.refresh([join(dir, 'gemini', '.gemini')]);
    const [session] = index.listSessions({});
    expect(session?.secrets).toBeGreaterThan(0);
    // two secrets of two rules on one line: a finding each, as the index counts them
    expect(found.length).toBe(session?.secrets);
  } finally {
    index.close();
  }
});
