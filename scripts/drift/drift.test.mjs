// What `npm run drift` counts as drift and what it lets pass: its comparisons over a real bundled recording (Claude
// Code 2.1.332: home, manifest, truth), each then changed by one thing a new client version could do, and its record
// shape check over small files written here. Needs a build (check.mjs reads packages/core/dist).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { root } from './agents.mjs';
import { adapterOf, compareManifest, compareTokens, loadAll, readServed, servedUsage } from './check.mjs';
import { costGate, reportedCosts } from './cost.mjs';
import { newShapes, shapesOf } from './shapes.mjs';
import { trimCodexRecording } from './trim.mjs';

const recording = join(root, 'packages/core/test/fixtures/claude-code/2.1.332');
const manifest = JSON.parse(readFileSync(join(recording, 'manifest.json'), 'utf8'));
const adapter = adapterOf('claude');
const { files, sessions } = await loadAll(adapter, [join(recording, 'claude-home')]);
const served = readServed(recording);

describe('servedUsage: what each wire says was served, in AgentDash terms', () => {
  test('Anthropic Messages: input, output, cache write and read as given', () => {
    const usage = { input_tokens: 45, output_tokens: 22, cache_creation_input_tokens: 700, cache_read_input_tokens: 9 };
    expect(servedUsage(usage)).toEqual({ input: 45, output: 22, cacheWrite: 700, cacheRead: 9 });
  });

  test('OpenAI Chat Completions: the cached part taken out of prompt_tokens', () => {
    const usage = { prompt_tokens: 1000, completion_tokens: 50, prompt_tokens_details: { cached_tokens: 600 } };
    expect(servedUsage(usage)).toEqual({ input: 400, output: 50, cacheWrite: 0, cacheRead: 600 });
  });

  test('OpenAI Responses: the cached part taken out of input_tokens', () => {
    const usage = { input_tokens: 1000, output_tokens: 50, input_tokens_details: { cached_tokens: 250 } };
    expect(servedUsage(usage)).toEqual({ input: 750, output: 50, cacheWrite: 0, cacheRead: 250 });
  });

  test('Gemini: cached content out of the prompt, thoughts billed as output', () => {
    const usage = {
      promptTokenCount: 900,
      cachedContentTokenCount: 100,
      candidatesTokenCount: 40,
      thoughtsTokenCount: 60,
    };
    expect(servedUsage(usage)).toEqual({ input: 800, output: 100, cacheWrite: 0, cacheRead: 100 });
  });
});

describe('compareTokens: every response the client wrote carries what was served', () => {
  test('the recording as made: every answered response compared by id, none differs', async () => {
    const result = await compareTokens(adapter, files, sessions, served);
    expect(result).toEqual({ by: 'response id', compared: 56, mismatched: [], unrecorded: [] });
  });

  test('one output token more served than written is drift, named by its response id', async () => {
    const changed = served.map((s) =>
      s.id === 'msg_files_1' ? { ...s, usage: { ...s.usage, output_tokens: s.usage.output_tokens + 1 } } : s,
    );
    const result = await compareTokens(adapter, files, sessions, changed);
    expect(result.mismatched).toEqual(['msg_files_1']);
  });

  test('cache read written where the wire said cache write is drift too', async () => {
    const changed = served.map((s) =>
      s.id === 'msg_files_1'
        ? {
            ...s,
            usage: {
              ...s.usage,
              cache_creation_input_tokens: 0,
              cache_read_input_tokens: s.usage.cache_creation_input_tokens,
            },
          }
        : s,
    );
    expect((await compareTokens(adapter, files, sessions, changed)).mismatched).toEqual(['msg_files_1']);
  });

  test('a served response the client never wrote is listed apart, not a mismatch', async () => {
    const extra = {
      scenario: 'files',
      kind: 'side',
      id: 'msg_side_1',
      status: 200,
      usage: { input_tokens: 3, output_tokens: 1 },
    };
    const result = await compareTokens(adapter, files, sessions, [...served, extra]);
    expect([result.mismatched, result.unrecorded]).toEqual([[], ['msg_side_1 (side)']]);
  });

  test('failed requests (HTTP 500, no usage) are not compared', async () => {
    const failed = served.filter((s) => s.status !== 200);
    expect(failed.length).toBe(2);
    const result = await compareTokens(adapter, files, sessions, served);
    expect(result.compared).toBe(served.length - failed.length);
  });
});

describe('compareTokens by scenario totals (a client that writes no response id)', () => {
  const session = (scenario, usage) => ({ projectPath: `/home/user/${scenario}`, usageByModel: { m: usage } });
  const u = (inputTokens, outputTokens) => ({
    inputTokens,
    outputTokens,
    cacheCreationInputTokens: 0,
    cacheReadInputTokens: 0,
  });
  const wire = (scenario, input_tokens, output_tokens, kind = 'script') => ({
    scenario,
    kind,
    status: 200,
    usage: { input_tokens, output_tokens },
  });

  test("a scenario's responses summed equal its session's totals: ok; side requests left out", async () => {
    const result = await compareTokens(
      adapter,
      [],
      [session('shell', u(30, 7))],
      [wire('shell', 10, 3), wire('shell', 20, 4), wire('shell', 500, 50, 'side')],
    );
    expect(result).toEqual({
      by: 'scenario totals (no response id recorded)',
      compared: 1,
      mismatched: [],
      unrecorded: [],
    });
  });

  test('a response served but missing from the session is drift, said per scenario', async () => {
    const result = await compareTokens(
      adapter,
      [],
      [session('shell', u(10, 3))],
      [wire('shell', 10, 3), wire('shell', 20, 4)],
    );
    expect(result.mismatched).toEqual([
      'shell: served {"input":30,"output":7,"cacheWrite":0,"cacheRead":0}, read {"input":10,"output":3,"cacheWrite":0,"cacheRead":0}',
    ]);
  });
});

describe('compareManifest: calls per tool and failures against what the recorder counted', () => {
  test('the recording as made: 122 calls per tool and the 5 failures as the manifest says', () => {
    expect(compareManifest(sessions, manifest)).toEqual({ calls: 122, failed: 5, problems: [], unchecked: [] });
  });

  test('a call the adapter did not read is drift, per tool', () => {
    const more = {
      ...manifest,
      toolCallsByName: { ...manifest.toolCallsByName, Read: manifest.toolCallsByName.Read + 1 },
    };
    expect(compareManifest(sessions, more).problems).toEqual(['Read: manifest 32, read 31']);
  });

  test('a tool read that the manifest does not know is drift', () => {
    const { Write: _, ...less } = manifest.toolCallsByName;
    expect(compareManifest(sessions, { ...manifest, toolCallsByName: less }).problems).toEqual([
      'Write: manifest 0, read 1',
    ]);
  });

  test('a failure read as ok, and an ok call read as failed, are drift', () => {
    const filesWith = manifest.files.map((f) =>
      f.scenario === 'shell'
        ? { ...f, failedByClient: [], expectedFailures: ['toolu_shell_7_0', 'toolu_files_1_0'] }
        : f,
    );
    expect(compareManifest(sessions, { ...manifest, files: filesWith }).problems).toEqual([
      'toolu_files_1_0: failed, read as ok',
      'toolu_shell_9_0: read as failed, not in the manifest',
    ]);
  });

  test('a manifest counting calls per file: the total compared, per tool said unchecked', () => {
    const perFile = { files: [{ calls: 100 }, { calls: 22 }] };
    expect(compareManifest(sessions, perFile)).toEqual({
      calls: 122,
      failed: 5,
      problems: [],
      unchecked: ['calls per tool (the manifest counts calls per file)', 'failures (the manifest lists none)'],
    });
    expect(compareManifest(sessions, { files: [{ calls: 121 }] }).problems).toEqual(['calls: manifest 121, read 122']);
  });

  test('a manifest counting nothing: nothing compared, and it says so', () => {
    expect(compareManifest(sessions, { files: [{}] })).toEqual({
      calls: 122,
      failed: 5,
      problems: [],
      unchecked: ['calls (the manifest does not count them)', 'failures (the manifest lists none)'],
    });
  });
});

describe('shapesOf / newShapes: record types and fields no baseline holds', () => {
  let dir;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'agentdash-drift-shapes-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const home = (name, files) => {
    const at = join(dir, name);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(at, path, '..'), { recursive: true });
      writeFileSync(join(at, path), text);
    }
    return at;
  };
  const jsonl = (...records) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

  test('types with subtypes, fields, one level into envelopes; the recorder files are not sessions', () => {
    const at = home('a', {
      's/1.jsonl': jsonl(
        { type: 'user', message: { role: 'user', content: 'x' } },
        { type: 'system', subtype: 'init', data: { cwd: '/' } },
      ),
      'truth.jsonl': jsonl({ type: 'served', usage: {} }),
      'manifest.json': JSON.stringify({ version: '1' }),
    });
    expect([...shapesOf([at])].sort()).toEqual([
      'system:init',
      'system:init data',
      'system:init data.cwd',
      'system:init subtype',
      'system:init type',
      'user',
      'user message',
      'user message.content',
      'user message.role',
      'user type',
    ]);
  });

  test('the same shapes with other values: no drift', () => {
    const base = home('b', { '1.jsonl': jsonl({ type: 'user', message: { content: 'a' } }) });
    const next = home('c', { '2.jsonl': jsonl({ type: 'user', message: { content: 'another value' } }) });
    expect(newShapes(shapesOf([next]), shapesOf([base]))).toEqual({ types: [], fields: [] });
  });

  test('a new field, a new type and a new envelope field are drift, types apart from fields', () => {
    const base = home('d', { '1.jsonl': jsonl({ type: 'user', message: { content: 'a' } }) });
    const next = home('e', {
      '1.jsonl': jsonl({ type: 'user', message: { content: 'a', id: 'm1' }, origin: 'cli' }, { type: 'progress' }),
    });
    expect(newShapes(shapesOf([next]), shapesOf([base]))).toEqual({
      types: ['progress'],
      fields: ['progress type', 'user message.id', 'user origin'],
    });
  });

  test('JSON session files: each message of `messages` a record (Gemini)', () => {
    const at = home('f', {
      'chats/session.json': JSON.stringify({ sessionId: 's', messages: [{ type: 'gemini', tokens: {} }] }),
    });
    expect([...shapesOf([at])].sort()).toEqual(['gemini', 'gemini tokens', 'gemini type']);
  });

  test('SQLite homes: columns of session, message and part, and the JSON in their data column (OpenCode)', () => {
    const at = join(dir, 'g');
    mkdirSync(at);
    const db = new Database(join(at, 'opencode.db'));
    db.exec('create table part (id text, data text); create table other (x text)');
    db.prepare('insert into part values (?, ?)').run('p1', JSON.stringify({ type: 'tool', state: { status: 'ok' } }));
    db.close();
    expect([...shapesOf([at])].sort()).toEqual([
      'part data',
      'part id',
      'part:tool',
      'part:tool state',
      'part:tool state.status',
      'part:tool type',
    ]);
  });

  test('a line that is not JSON and a missing folder are passed over, not thrown', () => {
    const at = home('h', { '1.jsonl': 'not json\n{"type":"user"}\n' });
    expect([...shapesOf([at, join(dir, 'missing')])].sort()).toEqual(['user', 'user type']);
  });
});

describe('trimCodexRecording: a recording as a fixture', () => {
  let dir;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'agentdash-drift-trim-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('the temp HOME becomes /home/user, instructions are cut, calls kept whole, OTLP capture and runs left out', () => {
    const temp = join(tmpdir(), 'codex-rec-4242/home');
    const from = join(dir, 'recording');
    const long = 'x'.repeat(4000);
    const lines = [
      { type: 'session_meta', payload: { cwd: `${temp}/proj/files`, base_instructions: { text: long } } },
      { type: 'response_item', payload: { type: 'message', role: 'developer', content: [{ text: long }] } },
      { type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output: long } },
    ];
    mkdirSync(join(from, 'codex-home/sessions'), { recursive: true });
    mkdirSync(join(from, 'runs'));
    writeFileSync(join(from, 'codex-home/sessions/r.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    writeFileSync(join(from, 'manifest.json'), JSON.stringify({ cwd: `file://${temp}/proj/files` }));
    writeFileSync(join(from, 'otlp.jsonl'), '{}\n');
    writeFileSync(join(from, 'runs/files.0.out'), 'out');
    const to = join(dir, 'fixture');
    trimCodexRecording(from, to);
    const [meta, developer, output] = readFileSync(join(to, 'codex-home/sessions/r.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(meta.payload.cwd).toBe('/home/user/proj/files');
    expect(meta.payload.base_instructions.text).toBe(`${'x'.repeat(120)}[elided 3880 chars]`);
    expect(developer.payload.content[0].text.length).toBeLessThan(200);
    expect(output.payload.output).toBe(long);
    expect(JSON.parse(readFileSync(join(to, 'manifest.json'), 'utf8'))).toEqual({
      cwd: 'file:///home/user/proj/files',
    });
    expect(existsSync(join(to, 'otlp.jsonl'))).toBe(false);
    expect(existsSync(join(to, 'runs'))).toBe(false);
  });
});

describe('costGate: what the matrix says of a model without a price', () => {
  const prices = { 'gpt-4': { input: 30e-6, output: 60e-6 }, 'claude-sonnet-4-5': { input: 3e-6, output: 15e-6 } };
  const gate = (models, extra = {}) =>
    costGate({ models, price: (m) => prices[m.slice(m.lastIndexOf('/') + 1)], normalize: (m) => m, ...extra });

  test('every model priced: pass', () => {
    expect(gate(['gpt-4', 'anthropic/claude-sonnet-4-5'])).toMatchObject({ ok: true, state: 'pass' });
  });

  test('an id only the scripted model served is its own state, not FAIL; a real unpriced model FAILs', () => {
    const served = new Set(['claude-opus-5-5']);
    expect(gate(['claude-sonnet-4-5', 'claude-opus-5-5'], { served })).toMatchObject({
      ok: true,
      state: 'not priced (scripted model id)',
    });
    expect(gate(['claude-sonnet-4-5', 'gpt-3.5-turbo'], { served }).state).toBe('FAIL');
  });

  test('a local model is free, a per-character model says so', () => {
    const cell = gate(['gpt-4', 'lm_studio/qwen3', 'google/palm-2-codechat-bison'], {
      normalize: (m) => m.slice(m.lastIndexOf('/') + 1),
    });
    expect(cell.state).toBe('pass (local model free, per-character model unpriced)');
    expect(cell.evidence).toContain('local models, free: lm_studio/qwen3');
  });

  test("an adapter's placeholder for a file that names no model is no price missing", () => {
    const cell = gate(['gpt-4', 'aider-unknown-model']);
    expect(cell).toMatchObject({ ok: true, state: 'pass' });
    expect(cell.evidence).toContain('no model named in the file (a run before its banner): aider-unknown-model');
  });

  test("a priced model whose cost differs from the client's own report FAILs", () => {
    const report = (cost) => [{ where: 'h.md:3', model: 'gpt-4', input: 945, output: 194, cost }];
    expect(gate(['gpt-4'], { reports: report('0.039990') })).toMatchObject({ ok: true, state: 'pass' });
    const wrong = gate(['gpt-4'], { reports: report('0.041000') });
    expect(wrong.state).toBe('FAIL');
    expect(wrong.evidence).toContain('h.md:3: gpt-4 $0.041000 reported, $0.039990 here');
  });

  test("reportedCosts reads Aider 0.1x's exact report under the run's model line", () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentdash-drift-cost-'));
    const file = join(dir, '.aider.chat.history.md');
    writeFileSync(
      file,
      '# aider chat started at 2023-08-18\n> Model: gpt-4\n#### hi\n> 945 prompt tokens, 194 completion tokens, $0.039990 cost\n',
    );
    expect(reportedCosts([file])).toEqual([
      { where: `${file}:4`, model: 'gpt-4', input: 945, output: 194, cost: '0.039990' },
    ]);
    rmSync(dir, { recursive: true, force: true });
  });
});
