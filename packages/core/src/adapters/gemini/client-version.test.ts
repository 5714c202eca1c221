import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readGeminiPath } from './test-helpers.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A 0.2x session document with these messages after a prompt, as ../shared/wild-agents entire-cli-2 writes one. */
function documentWith(...messages: Record<string, unknown>[]): string {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-gemini-version-'));
  const hash = '7e8989f71805c3147f6be9b7a71de2a156f8face69f9380beeeb8a777414f21c';
  const chats = join(dir, '.gemini/tmp', hash, 'chats');
  mkdirSync(chats, { recursive: true });
  const path = join(chats, 'session-2026-01-15T20-51-f7633853.json');
  const at = '2026-01-15T20:51:10.000Z';
  writeFileSync(
    path,
    JSON.stringify({
      sessionId: 'f7633853-0000-4000-8000-000000000001',
      projectHash: hash,
      startTime: at,
      lastUpdated: at,
      messages: [{ id: 'u1', timestamp: at, type: 'user', content: 'Hi' }, ...messages],
    }),
  );
  return path;
}

describe("a Gemini session's client version", () => {
  // Before: `client ?`, the session's versions [] (entire-cli-2: 0.23.0 ran, its notice offering 0.24.0).
  it('is the one its update notice names as running', async () => {
    const { records } = await readGeminiPath(
      documentWith(
        {
          id: 'i1',
          timestamp: '2026-01-15T20:51:11.000Z',
          type: 'info',
          content:
            'Gemini CLI update available! 0.23.0 → 0.24.0\nInstalled via Homebrew. Please update with "brew upgrade".',
        },
        {
          id: 'g1',
          timestamp: '2026-01-15T20:51:12.000Z',
          type: 'gemini',
          content: 'Hello.',
          model: 'gemini-2.5-flash',
        },
      ),
    );
    const chain = records.filter((r) => r.kind === 'user' || r.kind === 'assistant' || r.kind === 'system');
    expect(chain.map((r) => r.kind)).toEqual(['user', 'system', 'assistant']);
    expect(new Set(chain.map((r) => r.version))).toEqual(new Set(['0.23.0']));
  });

  it('is unknown without one, not guessed from another message', async () => {
    const { records } = await readGeminiPath(
      documentWith({ id: 'g1', timestamp: '2026-01-15T20:51:12.000Z', type: 'gemini', content: 'Gemini CLI 0.23.0' }),
    );
    const chain = records.filter((r) => r.kind === 'user' || r.kind === 'assistant');
    expect(new Set(chain.map((r) => r.version))).toEqual(new Set([undefined]));
  });
});
