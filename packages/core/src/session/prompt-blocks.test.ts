/**
 * Nothing of a message is dropped without a word. A prompt with a PDF attached (a `document` block beside its text)
 * or a block of a type AgentDash does not know lost it: the prompt took its text and images only, no issue said so,
 * and even the JSON export had nothing of it. An assistant message whose content is a string (hand-made and
 * stitched transcripts) was counted as a response with no text. Both kept now.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSessions } from '../../test/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-prompt-blocks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ID = 'b10c0000-0000-4000-8000-000000000001';

function home(): string {
  const project = join(dir, 'projects', '-tmp-blocks');
  mkdirSync(project, { recursive: true });
  const base = { sessionId: ID, cwd: '/tmp/blocks', version: '2.1.20', isSidechain: false, userType: 'external' };
  const pdf = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' } };
  const lines = [
    {
      ...base,
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      timestamp: '2026-01-01T00:00:00.000Z',
      message: {
        role: 'user',
        content: [{ type: 'text', text: 'Read the contract.' }, pdf, { type: 'hologram', beam: 1 }],
      },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      timestamp: '2026-01-01T00:00:01.000Z',
      message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-5', content: 'The contract is fine.' },
    },
  ];
  writeFileSync(join(project, `${ID}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return dir;
}

describe('blocks of a message besides its text', () => {
  it("keeps a prompt's document and unknown block, and an assistant's string content", async () => {
    const [session] = await loadSessions(home());
    const prompt = session?.events.find((e) => e.kind === 'prompt');
    expect(prompt?.kind === 'prompt' && [prompt.text, prompt.others?.map((b) => b.kind)]).toEqual([
      'Read the contract.',
      ['document', 'unknown'],
    ]);
    const reply = session?.events.find((e) => e.kind === 'assistant');
    expect(reply?.kind === 'assistant' && reply.items).toEqual([{ kind: 'text', text: 'The contract is fine.' }]);
  });
});
