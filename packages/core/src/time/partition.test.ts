import { describe, expect, it } from 'vitest';
import { adapterForFile } from '../agents/adapters.js';
import { threadActivity, waitsForPerson } from './activity.js';
import { IDLE_THRESHOLD_MS, partitionTime, type SessionTime, uncoveredTime } from './partition.js';

const s = 1000;
const sum = (t: SessionTime) => t.modelMs + t.toolMs + t.userMs + t.idleMs;

describe('threadActivity + partitionTime', () => {
  it('splits a turn into model, tool and user time that sum to the wall time', () => {
    const activity = threadActivity(
      [
        { atMs: 0, kind: 'prompt' },
        { atMs: 2 * s, kind: 'response', responseKey: 'a' }, // thinking block
        { atMs: 3 * s, kind: 'response', responseKey: 'a' }, // two tool_use blocks
        { atMs: 10 * s, kind: 'other' }, // first tool result
        { atMs: 12 * s, kind: 'other' }, // second tool result
        { atMs: 15 * s, kind: 'response', responseKey: 'b' }, // final answer
        { atMs: 75 * s, kind: 'prompt' }, // the person answers a minute later
        { atMs: 80 * s, kind: 'response', responseKey: 'c' },
      ],
      [
        { startMs: 3 * s, endMs: 10 * s, waitsForPerson: false },
        { startMs: 3 * s, endMs: 12 * s, waitsForPerson: false }, // parallel: counted once
      ],
    );
    const time = partitionTime(activity);
    expect(time).toEqual({ wallMs: 80 * s, modelMs: 3 * s + 3 * s + 5 * s, toolMs: 9 * s, userMs: 60 * s, idleMs: 0 });
    expect(sum(time)).toBe(time.wallMs);
  });

  it('a question to the person is user time; a long wait is idle', () => {
    const activity = threadActivity(
      [
        { atMs: 0, kind: 'prompt' },
        { atMs: 1 * s, kind: 'response', responseKey: 'a' },
        { atMs: 61 * s, kind: 'other' }, // the answer to AskUserQuestion
        { atMs: 62 * s, kind: 'response', responseKey: 'b' },
        { atMs: 62 * s + IDLE_THRESHOLD_MS + 1, kind: 'prompt' }, // back after a break
        { atMs: 63 * s + IDLE_THRESHOLD_MS + 1, kind: 'response', responseKey: 'c' },
      ],
      [{ startMs: 1 * s, endMs: 61 * s, waitsForPerson: true }],
    );
    const time = partitionTime(activity);
    expect(time).toEqual({
      wallMs: 63 * s + IDLE_THRESHOLD_MS + 1,
      modelMs: 3 * s,
      toolMs: 0,
      userMs: 60 * s,
      idleMs: IDLE_THRESHOLD_MS + 1,
    });
  });

  it("time after a response that nothing covers is not model time: a slash command typed after an answer is the person's", () => {
    const activity = threadActivity(
      [
        { atMs: 0, kind: 'prompt' },
        { atMs: 2 * s, kind: 'response', responseKey: 'a' }, // the answer
        { atMs: 9 * s, kind: 'other' }, // `/compact`, typed 7 s later (not a prompt)
        { atMs: 10 * s, kind: 'response', responseKey: 'b' }, // the compaction's summary
        { atMs: 10.5 * s, kind: 'other' }, // the client's end-of-turn record
      ],
      [],
    );
    const time = partitionTime(activity);
    // model: prompt → a (2 s) and the record before b → b (1 s); 2 → 9 s and 10 → 10.5 s are the person's side
    expect(time).toEqual({ wallMs: 10.5 * s, modelMs: 3 * s, toolMs: 0, userMs: 7.5 * s, idleMs: 0 });
  });

  it("time after a call the person interrupted is theirs, not the tool's (a wild session: 4 min, then /model)", () => {
    // spotter-3's short.jsonl: a Bash and a Glob refused at 21:12:02, the interruption, then `/model` at 21:16:12
    const activity = threadActivity(
      [
        { atMs: 0, kind: 'prompt' },
        { atMs: 3 * s, kind: 'response', responseKey: 'a' }, // the two calls
        { atMs: 6 * s, kind: 'other' }, // their refusals
        { atMs: 6 * s, kind: 'other' }, // "[Request interrupted by user for tool use]"
        { atMs: 256 * s, kind: 'other' }, // `/model`, a command (not a prompt)
      ],
      [
        { startMs: 3 * s, endMs: 6 * s, waitsForPerson: false },
        { startMs: 3 * s, endMs: 6 * s, waitsForPerson: false },
      ],
    );
    expect(partitionTime(activity)).toEqual({
      wallMs: 256 * s,
      modelMs: 3 * s,
      toolMs: 3 * s,
      userMs: 250 * s,
      idleMs: 0,
    });
    // a tool result the model answers keeps the client's work before its request (hooks) as the tool's
    const answered = threadActivity(
      [
        { atMs: 0, kind: 'prompt' },
        { atMs: 1 * s, kind: 'response', responseKey: 'a' },
        { atMs: 2 * s, kind: 'other' }, // the result
        { atMs: 4 * s, kind: 'other' }, // a hook's attachment, 2 s later
        { atMs: 5 * s, kind: 'request', requestKey: 'q' },
        { atMs: 6 * s, kind: 'response', responseKey: 'b', requestKey: 'q' },
      ],
      [{ startMs: 1 * s, endMs: 2 * s, waitsForPerson: false }],
    );
    expect(partitionTime(answered)).toMatchObject({ toolMs: 4 * s, userMs: 0 });
  });

  it('a response waits from the request it names (the client writes one as it goes out), not from the record before', () => {
    const activity = threadActivity(
      [
        { atMs: 0, kind: 'prompt' },
        { atMs: 0.4 * s, kind: 'other' }, // an attachment the client adds
        { atMs: 0.5 * s, kind: 'request', requestKey: 'q1' },
        { atMs: 2 * s, kind: 'response', responseKey: 'a', requestKey: 'q1' }, // a tool_use block
        { atMs: 3 * s, kind: 'other' }, // its result
        { atMs: 3.2 * s, kind: 'request', requestKey: 'q2' },
        { atMs: 3.3 * s, kind: 'other' }, // written while the request is out
        { atMs: 4 * s, kind: 'response', responseKey: 'b', requestKey: 'q2' },
        // A response naming no request (an older client) waits from the record before it.
        { atMs: 10 * s, kind: 'prompt' },
        { atMs: 11 * s, kind: 'response', responseKey: 'c' },
      ],
      [{ startMs: 2 * s, endMs: 3 * s, waitsForPerson: false }],
    );
    expect(activity.model).toEqual([
      { startMs: 0.5 * s, endMs: 2 * s },
      { startMs: 3.2 * s, endMs: 4 * s },
      { startMs: 10 * s, endMs: 11 * s },
    ]);
    // The client's work before a request counts as what it follows: the prompt (user) or the tool (tool).
    expect(partitionTime(activity)).toEqual({
      wallMs: 11 * s,
      modelMs: 3.3 * s,
      toolMs: 1.2 * s,
      userMs: 6.5 * s,
      idleMs: 0,
    });
  });

  it('requests do not stretch the thread; a request no response names does not start a wait', () => {
    const activity = threadActivity(
      [
        { atMs: 1 * s, kind: 'request', requestKey: 'early' },
        { atMs: 2 * s, kind: 'prompt' },
        { atMs: 3 * s, kind: 'other' }, // a message the client wrote itself ("No response requested.")
        { atMs: 4 * s, kind: 'response', responseKey: 'a', requestKey: 'later' },
        { atMs: 5 * s, kind: 'request', requestKey: 'cut-off' },
      ],
      [],
    );
    expect([activity.startMs, activity.endMs]).toEqual([2 * s, 4 * s]);
    expect(activity.model).toEqual([{ startMs: 3 * s, endMs: 4 * s }]);
  });

  it("failed requests and the client's waits to retry them are the model's time, answered or not", () => {
    // Claude Code 2.1.330's api-retry and api-500 sessions (30a34b12, 4da1eb3d): a request, an API error saying when
    // it retries, the next request; the last one answered, or an API error message the client wrote itself.
    const activity = threadActivity(
      [
        { atMs: 0, kind: 'prompt' },
        { atMs: 0.6 * s, kind: 'request', requestKey: 'q1' },
        { atMs: 0.7 * s, kind: 'other' }, // api_error, retryInMs 561
        { atMs: 1.3 * s, kind: 'request', requestKey: 'q2' },
        { atMs: 2 * s, kind: 'response', responseKey: 'a', requestKey: 'q2' },
        { atMs: 3 * s, kind: 'prompt' },
        { atMs: 3.1 * s, kind: 'request', requestKey: 'q3' },
        { atMs: 3.3 * s, kind: 'other' }, // api_error
        { atMs: 3.9 * s, kind: 'request', requestKey: 'q4' },
        { atMs: 4.1 * s, kind: 'other' }, // the client's own message: "API Error: 500 …"
        { atMs: 9 * s, kind: 'prompt' },
        { atMs: 9.5 * s, kind: 'request', requestKey: 'q5' },
        { atMs: 9.8 * s, kind: 'other' }, // gave up, the thread's end
      ],
      [],
    );
    expect(activity.model).toEqual([
      { startMs: 0.6 * s, endMs: 2 * s },
      { startMs: 3.1 * s, endMs: 4.1 * s },
      { startMs: 9.5 * s, endMs: 9.8 * s },
    ]);
    // Before: 0.7 s of model time; the waits for the API were the person's.
    expect(partitionTime(activity)).toEqual({
      wallMs: 9.8 * s,
      modelMs: 2.7 * s,
      toolMs: 0,
      userMs: 7.1 * s,
      idleMs: 0,
    });
  });

  it('a call waits for the person by its result kind, whatever the agent calls the tool', () => {
    expect(waitsForPerson('ask-user-question')).toBe(true);
    expect(waitsForPerson('exit-plan-mode')).toBe(true);
    expect(waitsForPerson('bash')).toBe(false);
    expect(waitsForPerson(undefined)).toBe(false);
    const kind = (agent: 'claude' | 'codex', name: string) => {
      const adapter = adapterForFile({ agent });
      return adapter.kindOfTool?.(adapter.canonicalToolName(name));
    };
    expect(waitsForPerson(kind('claude', 'AskUserQuestion'))).toBe(true);
    expect(waitsForPerson(kind('claude', 'exit_plan_mode'))).toBe(true);
    expect(waitsForPerson(kind('codex', 'request_user_input'))).toBe(true);
    expect(waitsForPerson(kind('codex', 'exec_command'))).toBe(false);
  });

  it('a call approved hours later is idle, not tool time: its tool ran for the figure it reports, up to its result', () => {
    const h = 3_600_000;
    const records = [
      { atMs: 0, kind: 'prompt' as const },
      { atMs: 2 * s, kind: 'response' as const, responseKey: 'a' }, // the call (Codex `dotnet restore`)
      { atMs: 15 * h, kind: 'other' as const }, // its output, after the person approved it: `Wall time: 3.2 seconds`
      { atMs: 15 * h + 2 * s, kind: 'response' as const, responseKey: 'b' },
    ];
    const call = { startMs: 2 * s, endMs: 15 * h, waitsForPerson: false };
    expect(partitionTime(threadActivity(records, [{ ...call, ranMs: 3.2 * s }]))).toEqual({
      wallMs: 15 * h + 2 * s,
      modelMs: 4 * s,
      toolMs: 3.2 * s,
      userMs: 0,
      idleMs: 15 * h - 5.2 * s,
    });
    // No figure of its own (or only its whole delta): a call longer than the idle threshold is a wait as a whole.
    for (const ranMs of [undefined, 15 * h - 2 * s]) {
      expect(partitionTime(threadActivity(records, [{ ...call, ranMs }]))).toEqual({
        wallMs: 15 * h + 2 * s,
        modelMs: 4 * s,
        toolMs: 0,
        userMs: 0,
        idleMs: 15 * h - 2 * s,
      });
    }
    // …unless it started a subagent, whose own records show its work.
    expect(partitionTime(threadActivity(records, [{ ...call, startsSubagent: true }])).toolMs).toBe(15 * h - 2 * s);
  });

  it('a short approval is time waiting for the person; a call written with its output ran before its record', () => {
    const records = [
      { atMs: 0, kind: 'prompt' as const },
      { atMs: 2 * s, kind: 'response' as const, responseKey: 'a' },
      { atMs: 62 * s, kind: 'other' as const },
      { atMs: 64 * s, kind: 'response' as const, responseKey: 'b' }, // call and output written at once (Codex 0.34)
      { atMs: 64 * s, kind: 'other' as const },
      { atMs: 65 * s, kind: 'response' as const, responseKey: 'c' },
    ];
    const time = partitionTime(
      threadActivity(records, [
        { startMs: 2 * s, endMs: 62 * s, waitsForPerson: false, ranMs: 10 * s }, // approved after 50 s
        { startMs: 64 * s, endMs: 64 * s, waitsForPerson: false, ranMs: 1.5 * s }, // `sleep 1.5`
      ]),
    );
    expect(time).toEqual({ wallMs: 65 * s, modelMs: 3.5 * s, toolMs: 11.5 * s, userMs: 50 * s, idleMs: 0 });
  });

  it('holds its invariants on random activity: parts non-negative, summing to the wall time', () => {
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let run = 0; run < 200; run++) {
      const records = Array.from({ length: 1 + Math.floor(rand() * 30) }, (_, i) => ({
        atMs: Math.floor(rand() * 3_600_000),
        kind: (['prompt', 'request', 'response', 'other'] as const)[Math.floor(rand() * 4)] ?? 'other',
        responseKey: `r${Math.floor(rand() * 5)}-${i % 3}`,
        requestKey: `q${Math.floor(rand() * 8)}`,
      }));
      const calls = Array.from({ length: Math.floor(rand() * 10) }, () => {
        const startMs = Math.floor(rand() * 3_600_000);
        const endMs = startMs + Math.floor(rand() * 2_000_000);
        const ranMs = rand() < 0.5 ? undefined : Math.floor(rand() * 2_000_000);
        return { startMs, endMs, waitsForPerson: rand() < 0.2, ranMs, startsSubagent: rand() < 0.1 };
      });
      const time = partitionTime(threadActivity(records, calls), 60_000 + Math.floor(rand() * 1_000_000));
      expect(sum(time)).toBe(time.wallMs);
      expect(Math.min(time.modelMs, time.toolMs, time.userMs, time.idleMs)).toBeGreaterThanOrEqual(0);
    }
  });

  it('an empty or single-instant thread has no time', () => {
    expect(partitionTime(threadActivity([], []))).toEqual({ wallMs: 0, modelMs: 0, toolMs: 0, userMs: 0, idleMs: 0 });
    expect(partitionTime(threadActivity([{ atMs: 5, kind: 'prompt' }], []))).toEqual({
      wallMs: 0,
      modelMs: 0,
      toolMs: 0,
      userMs: 0,
      idleMs: 0,
    });
  });
});

describe('uncoveredTime: what no record covers, and what the partition counts it as', () => {
  const min = 60 * s;
  const activity = {
    startMs: 0,
    endMs: 40 * min,
    model: [
      { startMs: 0, endMs: 10 * s },
      { startMs: 25 * s, endMs: 30 * s },
      { startMs: 60 * s, endMs: 70 * s },
      { startMs: 30 * min, endMs: 30 * min + 5 * s },
    ],
    tools: [{ startMs: 10 * s, endMs: 20 * s }],
    personTools: [],
    userWaits: [{ startMs: 90 * s, endMs: 100 * s }],
  };

  it('after a tool, the tool; after a response, what comes next; then the person; past the threshold, idle', () => {
    expect(uncoveredTime(activity)).toEqual([
      // a hook after the tool's result, before the next request
      { startMs: 20 * s, endMs: 25 * s, countedAs: 'tool' },
      // after a response, before another response: the person's side of the turn
      { startMs: 30 * s, endMs: 60 * s, countedAs: 'user' },
      // after a response, before a wait for the person: the wait's
      { startMs: 70 * s, endMs: 90 * s, countedAs: 'user' },
      // nothing for half an hour: idle
      { startMs: 100 * s, endMs: 30 * min, countedAs: 'idle' },
      { startMs: 30 * min + 5 * s, endMs: 40 * min, countedAs: 'user' },
    ]);
  });

  it('is the part of the partition no record covers: covered time plus it sums to each total', () => {
    const time = partitionTime(activity);
    const gaps = uncoveredTime(activity);
    const gap = (as: string) => gaps.filter((g) => g.countedAs === as).reduce((n, g) => n + g.endMs - g.startMs, 0);
    expect(time.toolMs).toBe(10 * s + gap('tool'));
    expect(time.modelMs).toBe(30 * s);
    expect(time.userMs).toBe(10 * s + gap('user'));
    expect(time.idleMs).toBe(gap('idle'));
    expect(sum(time)).toBe(time.wallMs);
  });
});
