import { STRING_LIMIT } from '@agentdash/api';
import { describe, expect, it } from 'vitest';
import { answerStatic, type StaticSessionData } from './static-source';
import type { CallDto } from './types';

const SID = 's1';
const OUTPUT = 'o'.repeat(50_000);
const call = {
  kind: 'tool-call',
  id: 'toolu_1',
  name: 'Bash',
  canonicalName: 'Bash',
  input: { command: 'cat log' },
  result: { isError: false, content: OUTPUT, toolUseResult: { stdout: OUTPUT, stderr: '' } },
  truncated: false,
} as unknown as CallDto;
const data = { sessionId: SID, calls: { toolu_1: call } } as unknown as StaticSessionData;
const asked = (query: Record<string, string>) => answerStatic(data, `/sessions/${SID}/calls/toolu_1`, query) as CallDto;
const lengths = (dto: CallDto) => [
  dto.truncated,
  String(dto.result?.content).length,
  String((dto.result?.toolUseResult as { stdout?: string } | undefined)?.stdout).length,
];

describe("an HTML export's call asked with `chars`", () => {
  it('cuts each text there, as the server does, and says so; at least the pages’ cut; whole without it', () => {
    expect(lengths(asked({ chars: '20000' }))).toEqual([true, 20_000, 20_000]);
    expect(lengths(asked({ chars: '5' }))).toEqual([true, STRING_LIMIT, STRING_LIMIT]);
    expect(lengths(asked({ chars: '60000' }))).toEqual([false, 50_000, 50_000]);
    expect(asked({})).toBe(call);
  });
});
