/** The generated sessions usage.test.ts shows: one of many parallel calls, one of calls at set times. */
import { join } from 'node:path';
import { prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';

export const BIG = '0000bbbb-2222-4333-8444-555555555555';
const CLOCK = '0000cccc-2222-4333-8444-555555555555';
export const CLOCK_PROJECT = '/home/user/proj/clock';

/** A session of `calls` tool calls, four at a time in parallel, 1–5 s each, one error in 50. */
export function writeBigSession(home: string, calls: number): void {
  const lines: string[] = [];
  const start = Date.parse('2026-11-20T08:00:00Z');
  let t = start;
  let parent: string | null = null;
  let n = 0;
  const ts = (ms: number) => new Date(ms).toISOString();
  const uuid = () => {
    n += 1;
    return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  };
  const base = (at: number) => {
    const u = uuid();
    const b = { sessionId: BIG, uuid: u, parentUuid: parent, timestamp: ts(at), cwd: '/home/user/proj/big' };
    parent = u;
    return b;
  };
  lines.push(prompt(base(t), 'Refactor everything.'));
  const tools = ['Read', 'Edit', 'Bash', 'Grep'];
  for (let i = 0; i < calls; i += 4) {
    t += 800; // the model's turn
    const message = `msg_big_${i}`;
    const ids = [0, 1, 2, 3].filter((k) => i + k < calls).map((k) => `toolu_big_${i + k}`);
    for (const [k, id] of ids.entries()) {
      lines.push(
        toolUse(base(t + k * 10), message, id, tools[k] ?? 'Read', { file_path: `/home/user/proj/big/f${i + k}.ts` }),
      );
    }
    let end = t;
    for (const [k, id] of ids.entries()) {
      const at = t + 1000 + ((i + k) % 5) * 1000;
      end = Math.max(end, at);
      lines.push(toolResult(base(at), id, (i + k) % 50 === 7 ? 'Error: no such file' : 'ok', (i + k) % 50 === 7));
    }
    t = end;
  }
  writeLines(join(home, 'projects', '-home-user-proj-big', `${BIG}.jsonl`), lines);
}

/** A session with one tool call at each of 10:00, 10:05 and 11:05 (UTC): 5 minutes, then an hour, apart. */
export function writeClockSession(home: string): void {
  let parent: string | null = null;
  const base = (n: number, at: string) => {
    const uuid = `00000000-0000-4000-8000-c${String(n).padStart(11, '0')}`;
    const b = { sessionId: CLOCK, uuid, parentUuid: parent, timestamp: at, cwd: CLOCK_PROJECT };
    parent = uuid;
    return b;
  };
  const lines = [prompt(base(0, '2026-11-21T09:59:00.000Z'), 'Check the clock.')];
  for (const [i, time] of ['10:00', '10:05', '11:05'].entries()) {
    lines.push(
      toolUse(base(2 * i + 1, `2026-11-21T${time}:00.000Z`), `msg_clock_${i}`, `toolu_clock_${i}`, 'Bash', {}),
    );
    lines.push(toolResult(base(2 * i + 2, `2026-11-21T${time}:02.000Z`), `toolu_clock_${i}`, 'ok', false));
  }
  writeLines(join(home, 'projects', '-home-user-proj-clock', `${CLOCK}.jsonl`), lines);
}
