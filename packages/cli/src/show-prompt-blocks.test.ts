/**
 * `show` names a prompt's other blocks (a PDF attached) as it names a response's: the loaded prompt keeps them and
 * the Markdown export names them, and `show` printed the prompt's text alone (review of e2e2432).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-show-blocks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ID = 'b10c0000-0000-4000-8000-000000000002';

it("prints a prompt's document and unknown block under it", async () => {
  const project = join(dir, 'home', '.claude', 'projects', '-tmp-blocks');
  mkdirSync(project, { recursive: true });
  const pdf = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' } };
  const prompt = {
    type: 'user',
    sessionId: ID,
    cwd: '/tmp/blocks',
    uuid: 'u1',
    parentUuid: null,
    timestamp: '2026-01-01T00:00:00.000Z',
    message: { role: 'user', content: [{ type: 'text', text: 'Read the contract.' }, pdf, { type: 'hologram' }] },
  };
  writeFileSync(join(project, `${ID}.jsonl`), `${JSON.stringify(prompt)}\n`);
  const shown = await runCli(['show', ID], { home: join(dir, 'home'), db: join(dir, 'index.sqlite') });
  expect(shown.code).toBe(0);
  const lines = shown.stdout.split('\n');
  const at = lines.findIndex((l) => l.includes('▶ Read the contract.'));
  expect(lines.slice(at + 1, at + 3).map((l) => l.replace(/^.*◇ /, ''))).toEqual([
    'document',
    'unknown block hologram',
  ]);
});
