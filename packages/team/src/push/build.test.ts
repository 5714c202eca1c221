import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKERS, type PlantedHome, SESSION_ID, writePlantedHome } from '../../test/planted-home.js';
import { FullSession, MetadataSession, PushSession, type ShareTier, SummarySession } from '../contract.js';
import { digestOf } from '../digest.js';
import { buildSession, outgoingText } from './build.js';
import { type Chunk, fileChunks } from './chunks.js';

const SALT = 'ab'.repeat(32);
let dir: string;
let planted: PlantedHome;
let index: AgentIndex;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-build-'));
  planted = writePlantedHome(join(dir, 'claude'));
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
  await index.refresh([planted.home]);
});

afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

async function built(tier: ShareTier): Promise<{ json: string; session: PushSession; chunkText: string }> {
  const s = index.listSessions().find((x) => x.id === SESSION_ID);
  if (!s) throw new Error('planted session not indexed');
  const chunks: Chunk[] = [];
  const files = [];
  if (tier === 'full') {
    for (const f of s.files) {
      const c = await fileChunks(index.openBytes, f.path, (chunk) => {
        chunks.push(chunk);
      });
      files.push({ name: 'x.jsonl', role: f.role, agentId: f.agentId ?? null, bytes: c.bytes, chunks: [...c.chunks] });
    }
  }
  const session = buildSession({ index, salt: SALT }, s, tier, files);
  const chunkText = chunks.map((c) => gunzipSync(c.gz).toString('utf8')).join('');
  return { json: JSON.stringify(session), session, chunkText };
}

/** No secret, nor a 12-character start of one (a text cut inside a secret leaves a start no rule matches). */
function expectNoSecret(text: string): void {
  for (const secret of planted.secrets) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(secret.slice(0, 12));
  }
}

describe('a session as pushed, per tier', () => {
  it('summary: numbers and tool names only; no marker, path, title or secret', async () => {
    const { json, session } = await built('summary');
    expect(SummarySession.safeParse(session).success).toBe(true);
    for (const marker of Object.values(MARKERS)) expect(json).not.toContain(marker);
    expectNoSecret(json);
    expect(json).not.toContain('/home/dev');
    expect(session.toolCalls).toBe(1);
    expect(session.errors).toBe(1);
    expect(session.calls.map((c) => [c.tool, c.status])).toEqual([['Bash', 'error']]);
    expect(session.usage.responses).toBe(2);
    expect(session.responses.map((r) => r.input)).toEqual([120, 120]);
    // a response that recorded its input sends no flag: the payload (and its digest) as before
    expect(session.responses.filter((r) => 'inputUnrecorded' in r)).toEqual([]);
  });

  it('metadata: title, project and call summaries, with every secret redacted', async () => {
    const { json, session } = await built('metadata');
    expect(MetadataSession.safeParse(session).success).toBe(true);
    expectNoSecret(json);
    expect(json).toContain(MARKERS.title);
    expect(json).toContain(MARKERS.project);
    expect(json).toContain(MARKERS.branch);
    // the call's one-line summary, cut by the index inside the token: the cut word goes, the rest stays
    expect((session as MetadataSession).calls[0]?.summary).toMatch(/^Bash curl -H "Authorization: Bearer …/);
    expect(json).toContain('[REDACTED:github-token]');
    // what only the transcript holds stays on the laptop
    for (const m of [MARKERS.reply, MARKERS.thinking]) expect(json).not.toContain(m);
  });

  it('a text cut inside a secret leaves none of its start, symbols and all', () => {
    const cut = [
      ['Bash export DB_PASSWORD=Qw8!zKp7x9Lm2aa…', 'Qw8!'],
      ['Bash export DB_PASSWORD="Qw8zKp7x9Lm2…', 'Qw8z'],
      ['Bash mysql -u root -pHunter2Xy9Zq…', 'Hunter2'],
      ['Bash curl -H "Authorization: Bearer ghp_R2d2C3po…', 'R2d2'],
      // no digit in the part before the cut: the secret's prefix or its name says what it is
      ['Bash export OPENAI_API_KEY=sk-proj-CUTOPENAIaaaaaaaaaaaaaaaaaaaa…', 'CUTOPENAI'],
      ['Bash deploy --token abcdefghijklmnopqrstu…', 'abcdefgh'],
      ['Bash curl -H "Authorization: Bearer abcdefghijklmnopqrstuvw…', 'abcdefgh'],
      // a URL cut inside its password, before its `@`
      ['Bash psql postgresql://app:Abcdefghijklmnopqr…', 'Abcdefgh'],
    ];
    for (const [text, start] of cut) {
      const out = outgoingText(text ?? '');
      expect(out, text).not.toContain(start);
      expect(out, text).toMatch(/^Bash \S+/);
    }
    // Prose and paths without a digit before a cut stay as they were.
    for (const text of ['Read the whole module and then summarise…', 'Bash npm test -- --reporter=verbose…']) {
      expect(outgoingText(text)).toBe(text);
    }
  });

  it("a failed call's error message: its first line at metadata, all of it (redacted) at full", async () => {
    const [metadata] = (await built('metadata')).session.calls;
    const [full] = (await built('full')).session.calls;
    const whole = (full as { errorMessage: string | null } | undefined)?.errorMessage ?? '';
    expect(whole.split('\n').length).toBeGreaterThan(10);
    expect(whole.split('\n')[0]).toContain(MARKERS.output);
    expect((metadata as { errorMessage: string | null } | undefined)?.errorMessage).toBe(whole.split('\n')[0]);
  });

  it('full: the transcript in chunks, redacted, still one JSON record a line', async () => {
    const { json, session, chunkText } = await built('full');
    expect(FullSession.safeParse(session).success).toBe(true);
    expectNoSecret(json);
    expectNoSecret(chunkText);
    for (const m of [MARKERS.prompt, MARKERS.reply, MARKERS.thinking, MARKERS.output]) expect(chunkText).toContain(m);
    const lines = chunkText.split('\n').filter((l) => l !== '');
    expect(lines.length).toBe(5);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(chunkText).toContain('toolu_planted_1');
  });

  it('the digest is stable and covers every field; a tier refuses the fields above it', async () => {
    const a = (await built('metadata')).session;
    const b = (await built('metadata')).session;
    expect(a.digest).toBe(b.digest);
    expect(digestOf(a as unknown as Record<string, unknown>)).toBe(a.digest);
    expect(digestOf({ ...a, toolCalls: 2 } as unknown as Record<string, unknown>)).not.toBe(a.digest);
    const summary = (await built('summary')).session;
    expect(summary.digest).not.toBe(a.digest);
    expect(PushSession.safeParse({ ...summary, title: 'a title' }).success).toBe(false);
    const call = summary.calls[0];
    expect(PushSession.safeParse({ ...summary, calls: [{ ...call, summary: 'Bash rm -rf' }] }).success).toBe(false);
  });

  it("an Aider session's id names its repository: below metadata it leaves as a hash, in its calls' ids too", async () => {
    const repo = fileURLToPath(new URL('../../../core/test/fixtures/aider/Aquaticat-Monochromatic/', import.meta.url));
    const own = openIndex({ dbPath: join(dir, 'aider.sqlite') });
    try {
      await own.refresh([repo]);
      const [s] = own.listSessions();
      expect(s?.id).toBe('aider-Aquaticat-Monochromatic');
      const at = (tier: ShareTier) => buildSession({ index: own, salt: SALT }, s!, tier);
      const summary = at('summary');
      expect(JSON.stringify(summary)).not.toContain('Monochromatic');
      expect(summary.sessionId).toMatch(/^h-[0-9a-f]{32}$/);
      expect(summary.calls.length).toBeGreaterThan(0);
      for (const c of summary.calls) expect(c.id.startsWith(`${summary.sessionId}:`)).toBe(true);
      // the metadata tier names the project anyway: the id as it is
      const metadata = at('metadata');
      expect(metadata.sessionId).toBe('aider-Aquaticat-Monochromatic');
      expect(metadata.calls.map((c) => c.id.replace(metadata.sessionId, summary.sessionId))).toEqual(
        summary.calls.map((c) => c.id),
      );
    } finally {
      own.close();
    }
  });

  it("a Copilot CLI 1.0.64 response without input says so; an older client's, without the flag, still parses", async () => {
    const home = fileURLToPath(new URL('../../../core/test/fixtures/copilot/wild/entire-agentv-1/', import.meta.url));
    const own = openIndex({ dbPath: join(dir, 'copilot.sqlite') });
    try {
      await own.refresh([home]);
      const sessions = own.listSessions().map((s) => buildSession({ index: own, salt: SALT }, s, 'summary'));
      const sent = sessions.flatMap((s) => s.responses.map((r) => [r.model, r.input, r.inputUnrecorded] as const));
      expect(sent.sort((a, b) => a[0].localeCompare(b[0]))).toEqual([
        ['gpt-5.3-codex-spark', 0, true],
        ['gpt-5.4-mini', 0, true],
      ]);
      for (const s of sessions) {
        expect(SummarySession.safeParse(s).success).toBe(true);
        const older = { ...s, responses: s.responses.map(({ inputUnrecorded: _, ...r }) => r) };
        expect(SummarySession.safeParse(older).success).toBe(true);
      }
    } finally {
      own.close();
    }
  });
});
