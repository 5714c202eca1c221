/**
 * Hostile transcript lines for robustness tests and the fuzzer: values nested thousands of levels deep in every
 * field, huge arrays, NUL bytes. Every line here is valid JSON that `JSON.parse` accepts.
 */

/** The nesting depth of the issue-13 crash (a 4.4 KB line). */
export const WORST_DEPTH = 2200;

/** `[[[…]]]` nested `depth` levels. */
export function deepArray(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

/** `{"a":{"a":…1}}` nested `depth` levels. */
export function deepObject(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A deep value alternating arrays and objects, as real nested tool data would. */
export function deepMixed(depth: number): string {
  const half = Math.floor(depth / 2);
  return `${'[{"k":'.repeat(half)}"\\u0000"${'}]'.repeat(half)}`;
}

/**
 * The worst lines: one record of every chain type with a deep value in every field that is walked (message content,
 * tool input, tool result content, `toolUseResult`, attachment, progress data, meta data, unknown records), plus huge
 * arrays and NUL characters. Tool ids pair: `toolu_hostile_<n>`.
 */
export function worstLines(depth: number = WORST_DEPTH, sessionId = 'hostile-session'): string[] {
  const deep = [deepArray(depth), deepObject(depth), deepMixed(depth)];
  const envelope = (uuid: string, parent: string | null) =>
    `"uuid":"${uuid}","parentUuid":${parent === null ? 'null' : `"${parent}"`},"sessionId":"${sessionId}","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/tmp/hostile\\u0000","version":"2.1.0"`;
  const lines: string[] = [];
  let parent: string | null = null;
  deep.forEach((value, i) => {
    const id = `toolu_hostile_${i}`;
    const a = `h-a-${i}`;
    const u = `h-u-${i}`;
    lines.push(
      `{"type":"assistant",${envelope(a, parent)},"message":{"id":"msg_h${i}","role":"assistant","model":"m-${i}","content":[{"type":"text","text":"x\\u0000y"},{"type":"tool_use","id":"${id}","name":"Bash","input":${value}},{"type":"thinking","thinking":${value}},${value}],"usage":${value}}}`,
      `{"type":"user",${envelope(u, a)},"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"${id}","content":${value},"is_error":${i === 1}},${value}]},"toolUseResult":${value}}`,
      `{"type":"user",${envelope(`h-p-${i}`, u)},"message":{"role":"user","content":${value}}}`,
      `{"type":"system",${envelope(`h-s-${i}`, u)},"subtype":"x","content":${value},"extra":${value}}`,
      `{"type":"attachment",${envelope(`h-t-${i}`, u)},"attachment":{"type":"x","value":${value}}}`,
      `{"type":"progress",${envelope(`h-g-${i}`, u)},"data":{"type":"x","value":${value}},"toolUseID":"${id}"}`,
      `{"type":"queue-operation","operation":"enqueue","content":${value},"sessionId":"${sessionId}"}`,
      `{"type":"tag","data":${value},"sessionId":"${sessionId}"}`,
      `{"type":"no-such-type","data":${value},"sessionId":"${sessionId}"}`,
      `{"type":"file-history-snapshot","messageId":"m","snapshot":{"trackedFileBackups":${value.startsWith('{') ? value : '{}'}}}`,
      `{"type":"summary","summary":${value},"leafUuid":"${u}"}`,
      value,
    );
    parent = u;
  });
  const huge = `[${new Array(200_000).fill('0').join(',')}]`;
  lines.push(
    `{"type":"assistant",${envelope('h-big', parent)},"message":{"id":"msg_big","role":"assistant","model":"m","content":${huge}}}`,
    `{"type":"user",${envelope('h-big-u', 'h-big')},"message":{"role":"user","content":${huge}},"toolUseResult":${huge}}`,
    `{"type":"user",${envelope('h-nul', 'h-big-u')},"message":{"role":"user","content":"\\u0000\\u0000 NUL \\u0000"}}`,
  );
  return lines;
}
