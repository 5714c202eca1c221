/**
 * Prices by request size, through the index: each response's tier is kept in its session's stored usage, so a
 * session's cost is each response at its own tier's rates (Qwen3 Coder Plus's four tiers, Sonnet 4.5 above 200k).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultPriceTable, findPrice, promptTokens, responseCost, zeroTokens } from '@agentdash/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentIndex, openIndex } from './index.js';

const sessionId = '7e1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
/** [model, input, cache read, output]: one response each, on both sides of every boundary. */
const responses: readonly (readonly [string, number, number, number])[] = [
  ['qwen3-coder-plus', 1_000, 31_000, 500],
  ['qwen3-coder-plus', 1_000, 31_001, 500],
  ['qwen3-coder-plus', 2_000, 126_000, 700],
  ['qwen3-coder-plus', 2_000, 126_001, 700],
  ['qwen3-coder-plus', 50_000, 206_000, 900],
  ['qwen3-coder-plus', 50_000, 206_001, 900],
  ['qwen3-coder-plus', 500_000, 400_000, 2_000],
  ['claude-sonnet-4-5-20250929', 10, 199_990, 100],
  ['claude-sonnet-4-5-20250929', 10, 199_991, 100],
];

function transcript(): string {
  const lines = [
    {
      type: 'user',
      sessionId,
      uuid: 'u0',
      parentUuid: null,
      timestamp: '2026-01-02T10:00:00.000Z',
      cwd: '/home/user/proj/tiers',
      version: '2.1.330',
      message: { role: 'user', content: 'price me' },
    },
  ];
  responses.forEach(([model, input, cacheRead, output], i) => {
    lines.push({
      type: 'assistant',
      sessionId,
      uuid: `a${i}`,
      parentUuid: i === 0 ? 'u0' : `a${i - 1}`,
      timestamp: `2026-01-02T10:00:${String(i + 1).padStart(2, '0')}.000Z`,
      cwd: '/home/user/proj/tiers',
      version: '2.1.330',
      message: {
        id: `msg_${i}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text: `answer ${i}` }],
        stop_reason: 'end_turn',
        usage: { input_tokens: input, cache_read_input_tokens: cacheRead, output_tokens: output },
      },
    } as never);
  });
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

let dir: string;
let home: string;
let index: AgentIndex;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-tiers-'));
  home = join(dir, 'claude');
  mkdirSync(join(home, 'projects', '-home-user-proj-tiers'), { recursive: true });
  writeFileSync(join(home, 'projects', '-home-user-proj-tiers', `${sessionId}.jsonl`), transcript());
  index = openIndex({ dbPath: join(dir, 'index.sqlite') });
});
afterAll(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('prices by request size in the index', () => {
  it("bills each response at its own tier's rates", async () => {
    await index.refresh([home]);
    const [session] = index.listSessions({ paths: [home] });
    const perMillion = (input: number, cacheRead: number, output: number, rates: readonly number[]) =>
      (input * (rates[0] ?? 0) + cacheRead * (rates[2] ?? 0) + output * (rates[1] ?? 0)) / 1e6;
    // By hand from the list prices ([in, out, cache read] per million), not from the table under test.
    const qwen = [
      [1, 5, 0.1],
      [1.8, 9, 0.18],
      [1.8, 9, 0.18],
      [3, 15, 0.3],
      [3, 15, 0.3],
      [6, 60, 0.6],
      [6, 60, 0.6],
    ];
    const sonnet = [
      [3, 15, 0.3],
      [6, 22.5, 0.6],
    ];
    const rates = [...qwen, ...sonnet];
    const expected = responses.reduce(
      (sum, [, input, cacheRead, output], i) => sum + perMillion(input, cacheRead, output, rates[i] ?? []),
      0,
    );
    expect(session?.usage.responses).toBe(responses.length);
    expect(session?.unpricedModels).toEqual([]);
    expect(session?.costUsd).toBeCloseTo(expected, 10);
    // And the same as core's price of each response, as the usage reports compute it.
    const core = responses.reduce((sum, [model, input, cacheRead, output]) => {
      const price = findPrice(defaultPriceTable, model);
      const tokens = { ...zeroTokens, inputTokens: input, cacheReadInputTokens: cacheRead, outputTokens: output };
      expect(promptTokens(tokens)).toBe(input + cacheRead);
      return sum + (price ? responseCost(price, tokens) : Number.NaN);
    }, 0);
    expect(session?.costUsd).toBeCloseTo(core, 10);
  });
});
