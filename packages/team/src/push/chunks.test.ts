import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { RawLines } from '@agentdash/core/secrets';
import { plantedSecrets } from '@agentdash/core/secrets/planted';
import { afterAll, describe, expect, it } from 'vitest';
import { writePlantedHome } from '../../test/planted-home.js';
import { type Chunk, fileChunks, redactLine } from './chunks.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-chunks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The reference: the lines redacted in order (core's `RawLines`: a private key's lines follow its BEGIN line). */
const lineByLine = (text: string) => {
  const lines = new RawLines();
  return text
    .split('\n')
    .map((line) => (line.endsWith('\r') ? `${lines.redact(line.slice(0, -1))}\r` : lines.redact(line)))
    .join('\n');
};

function jsonlFiles(root: string, out: string[] = []): string[] {
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (statSync(path).isDirectory()) jsonlFiles(path, out);
    else if (name.endsWith('.jsonl')) out.push(path);
  }
  return out;
}

async function chunksOf(path: string): Promise<{ text: string; chunks: Chunk[] }> {
  const chunks: Chunk[] = [];
  await fileChunks(
    (p) => open(p, 'r'),
    path,
    (c) => {
      chunks.push(c);
    },
  );
  return { text: chunks.map((c) => gunzipSync(c.gz).toString('utf8')).join(''), chunks };
}

describe("a transcript's text as the full tier sends it", () => {
  it('is the file with each line redacted, over planted secrets, CRLF lines and the bundled samples', async () => {
    const planted = writePlantedHome(join(dir, 'planted'));
    const crlf = join(dir, 'crlf.jsonl');
    writeFileSync(
      crlf,
      `${plantedSecrets()
        .map((p) => JSON.stringify({ text: p.text }))
        .join('\r\n')}\r\n`,
    );
    const samples = join(import.meta.dirname, '../../../cli/samples/claude-home');
    for (const file of [planted.file, crlf, ...jsonlFiles(samples)]) {
      expect((await chunksOf(file)).text).toBe(lineByLine(readFileSync(file, 'utf8')));
    }
    expect((await chunksOf(planted.file)).text).not.toBe(readFileSync(planted.file, 'utf8'));
  });

  it("sends no secret of a file that is not JSON Lines: a JSON document's escaped strings, a key over lines", async () => {
    // Gemini CLI's session file (one pretty-printed document) and Aider's Markdown history (a key a tool printed)
    const gemini = join(dir, 'session-gemini.json');
    writeFileSync(
      gemini,
      JSON.stringify(
        {
          messages: [
            { type: 'user', content: 'use password="GEMprompt55Zz"' },
            { result: '{"password": "GEMjsonpw9Zq8"}' },
          ],
        },
        null,
        2,
      ),
    );
    const aider = join(dir, '.aider.chat.history.md');
    const body = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW';
    writeFileSync(
      aider,
      [
        '#### show the key',
        '> -----BEGIN OPENSSH PRIVATE KEY-----',
        `> ${body}`,
        '> -----END OPENSSH PRIVATE KEY-----',
        'ok',
      ].join('\n'),
    );
    const sentGemini = (await chunksOf(gemini)).text;
    for (const secret of ['GEMprompt55Zz', 'GEMjsonpw9Zq8']) expect(sentGemini).not.toContain(secret);
    expect(() => JSON.parse(sentGemini)).not.toThrow();
    const sentAider = (await chunksOf(aider)).text;
    expect(sentAider).not.toContain(body);
    expect(sentAider).not.toContain('END OPENSSH');
    expect(sentAider.split('\n').at(-1)).toBe('ok');
  });

  it('redacts a secret escaped inside a JSON string, and a secret-ish field of a parsed line', () => {
    // Each line's only secret: none of them is found by the rules in the line as written.
    const lines = [
      { message: { content: [{ type: 'tool_use', input: { command: 'export DB_PASSWORD="Qw8zKp7x9Lm2" && psql' } }] } },
      { message: { content: [{ type: 'tool_result', content: '{"password": "Qw8zKp7x9Lm2", "host": "db"}' }] } },
      { toolUseResult: { stdout: 'HOST=db\nDB_PASSWORD=Qw8zKp7x9Lm2\n' } },
      { message: { content: [{ type: 'tool_use', input: { user: 'bob', password: 'Qw8zKp7x9Lm2' } }] } },
    ].map((record) => JSON.stringify(record));
    for (const line of lines) {
      const sent = redactLine(line);
      expect(sent, line).not.toContain('Qw8zKp7x9Lm2');
      expect(sent, line).toContain('[REDACTED:');
      expect(() => JSON.parse(sent), line).not.toThrow();
    }
    // A line without a secret is sent as written, byte for byte (not re-serialized).
    const plain = '{"type":"user","message":{"content":"token count: 12","n":1.0}}';
    expect(redactLine(plain)).toBe(plain);
  });

  it('keeps every byte of a file without secrets, lines longer than a read block included', async () => {
    const long = JSON.stringify({ type: 'user', text: 'x'.repeat(3 * 1024 * 1024 + 17) });
    const content = `${long}\n{"a":"é—ü"}\n${'{"b":1}\n'.repeat(200_000)}{"unfinished":`;
    const path = join(dir, 'plain.jsonl');
    writeFileSync(path, content);
    const { text, chunks } = await chunksOf(path);
    expect(text).toBe(content);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(gunzipSync(c.gz).toString('utf8').endsWith('\n') || c === chunks.at(-1)).toBe(true);
  });

  it('gives the same chunk names for the same bytes (content-addressed)', async () => {
    const planted = writePlantedHome(join(dir, 'again'));
    const a = await chunksOf(planted.file);
    const b = await chunksOf(planted.file);
    expect(a.chunks.map((c) => c.sha256)).toEqual(b.chunks.map((c) => c.sha256));
    for (const p of plantedSecrets()) expect(a.text).not.toContain(p.secret);
  });
});
