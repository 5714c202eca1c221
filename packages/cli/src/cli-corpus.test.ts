import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentBlocks } from '@agentdash/testing/synthetic';
import { describe, expect, it } from 'vitest';
import { cliSandbox } from '../test/cli-sandbox.js';
import { SAMPLES_HOME } from './default-homes.js';
import type { IndexJson, StatsJson } from './output/json-types.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');

const sb = cliSandbox();
const { cli, json } = sb;

describe('incremental index through the CLI (real SQLite file)', () => {
  it('an appended copy of a session parses only the new bytes', async () => {
    const source = readdirSync(join(SAMPLES_HOME, 'projects', '-home-user-proj-files')).find((n) =>
      n.endsWith('.jsonl'),
    );
    if (!source) throw new Error('sample missing');
    const bytes = readFileSync(join(SAMPLES_HOME, 'projects', '-home-user-proj-files', source));
    const target = join(sb.dir, 'append-home', 'projects', '-p', source);
    const cut = bytes.indexOf(0x0a, Math.floor(bytes.length / 2)) + 1;
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, bytes.subarray(0, cut));
    const home = join(sb.dir, 'append-home');
    const first = json<IndexJson>(await cli(['index', home, '--json']));
    expect(first.bytesParsed).toBe(cut);
    appendFileSync(target, bytes.subarray(cut));
    const second = json<IndexJson>(await cli(['index', home, '--json']));
    expect(second).toMatchObject({ filesParsed: 1, bytesParsed: bytes.length - cut });
    expect(json<IndexJson>(await cli(['index', home, '--json'])).bytesParsed).toBe(0);
  });
});

const corpusRoot = resolve(repoRoot, '../shared/corpus');
const corpusVersions = existsSync(corpusRoot)
  ? readdirSync(corpusRoot).filter((v) => existsSync(join(corpusRoot, v, 'claude-home')))
  : [];

/** Unique tool_use ids per tool and is_error results, counted with plain JSON.parse (no AgentDash code). */
function independentCount(home: string): {
  calls: number;
  errors: number;
  tools: Record<string, { calls: number; errors: number }>;
} {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.jsonl')) files.push(p);
    }
  };
  walk(join(home, 'projects'));
  const calls = new Map<string, string>();
  const isError = new Map<string, boolean>();
  for (const file of files) {
    for (const { recordType, block } of contentBlocks(readFileSync(file, 'utf8'))) {
      if (recordType === 'assistant' && block.type === 'tool_use' && block.id && !calls.has(block.id))
        calls.set(block.id, block.name ?? '');
      if (recordType === 'user' && block.type === 'tool_result' && block.tool_use_id && !isError.has(block.tool_use_id))
        isError.set(block.tool_use_id, block.is_error === true);
    }
  }
  const tools: Record<string, { calls: number; errors: number }> = {};
  let errors = 0;
  for (const [id, name] of calls) {
    const t = tools[name] ?? { calls: 0, errors: 0 };
    tools[name] = t;
    t.calls += 1;
    if (isError.get(id) === true) {
      t.errors += 1;
      errors += 1;
    }
  }
  return { calls: calls.size, errors, tools };
}

// Says "skipped" only when it is.
const suiteTitle = corpusVersions.length === 0 ? 'corpus (skipped: ../shared/corpus is not present)' : 'corpus';
describe.skipIf(corpusVersions.length === 0)(suiteTitle, () => {
  for (const version of corpusVersions) {
    it(`stats --json over ${version} equals an independent count`, async () => {
      const home = join(corpusRoot, version, 'claude-home');
      const stats = json<StatsJson>(await cli(['stats', home, '--json']));
      const expected = independentCount(home);
      expect(stats.calls).toBe(expected.calls);
      expect(stats.errors).toBe(expected.errors);
      const actual = Object.fromEntries(
        Object.entries(stats.tools).map(([n, t]) => [n, { calls: t.calls, errors: t.errors }]),
      );
      expect(actual).toEqual(expected.tools);
      const again = json<IndexJson>(await cli(['index', home, '--json']));
      expect(again.bytesParsed).toBe(0);
    });
  }

  it('an appended copy of a corpus session parses only the new bytes', async () => {
    const version = corpusVersions[0] ?? '';
    const projects = join(corpusRoot, version, 'claude-home', 'projects');
    const project = readdirSync(projects)[0] ?? '';
    const source = readdirSync(join(projects, project)).find((n) => n.endsWith('.jsonl')) ?? '';
    const target = join(sb.dir, 'corpus-copy', 'projects', project, source);
    cpSync(join(projects, project, source), target);
    const home = join(sb.dir, 'corpus-copy');
    json<IndexJson>(await cli(['index', home, '--json']));
    const extra = `${readFileSync(target, 'utf8')
      .trimEnd()
      .split('\n')
      .slice(-1)[0]
      ?.replace(/"uuid":"[^"]+"/, '"uuid":"appended-uuid"')}\n`;
    appendFileSync(target, extra);
    const r = json<IndexJson>(await cli(['index', home, '--json']));
    expect(r).toMatchObject({ filesParsed: 1, bytesParsed: Buffer.byteLength(extra), records: 1 });
  });
});
