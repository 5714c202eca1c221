// What a recording's OTLP export holds and how much of it joins the transcripts of the same sessions (issue 34):
// decoded with AgentDash's own decoder (packages/core, built), counted per signal and name, and joined by the ids
// each client exports — Codex CLI: `conversation.id` = the rollout's `session_meta.id`, `codex.tool_result`
// `call_id` = a `function_call`'s `call_id`; Gemini CLI: `session.id` = the chat's `sessionId`, the `tool_call`
// span's `gen_ai.tool.call_id` = a `toolCalls[].id`. Also runnable on its own:
//
//   node scripts/record/telemetry-manifest.mjs codex|gemini <recording dir>
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { attrText, decodeOtlpRequest } from '../../packages/core/dist/index.js';

function countBy(values) {
  const counts = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}

function linesOf(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

function filesUnder(dir, suffix) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(suffix))
    .map((e) => join(e.parentPath ?? e.path, e.name));
}

/** Every record of a recording's otlp.jsonl, decoded. */
export function decodeRecording(dir) {
  const records = [];
  const issues = [];
  for (const request of linesOf(join(dir, 'otlp.jsonl'))) {
    const decoded = decodeOtlpRequest({
      signal: request.path.slice(4),
      contentType: request.contentType,
      contentEncoding: request.contentEncoding ?? '',
      body: new Uint8Array(Buffer.from(request.body, 'base64')),
    });
    records.push(...decoded.records);
    issues.push(...decoded.issues.map((i) => i.code));
  }
  return { records, issues };
}

/** The transcripts' side of the join: session ids and call ids. */
function transcriptIds(dir, agent) {
  const sessions = new Set();
  const calls = new Set();
  if (agent === 'codex') {
    for (const file of filesUnder(join(dir, 'codex-home'), '.jsonl')) {
      for (const line of linesOf(file)) {
        if (line.type === 'session_meta') sessions.add(line.payload.id);
        if (line.type === 'response_item' && line.payload?.call_id && /call$/.test(line.payload.type)) {
          calls.add(line.payload.call_id);
        }
      }
    }
  } else {
    for (const file of filesUnder(join(dir, 'gemini-home'), '.jsonl')) {
      for (const line of linesOf(file)) {
        if (typeof line.sessionId === 'string' && line.messages === undefined) sessions.add(line.sessionId);
        for (const call of line.toolCalls ?? []) calls.add(call.id);
      }
    }
  }
  return { sessions, calls };
}

const percent = (part, whole) => (whole === 0 ? null : Math.round((1000 * part) / whole) / 10);

/** Counts per signal and name, and the joins, of the recording in `dir`. */
export function telemetryManifest(dir, agent) {
  const requests = linesOf(join(dir, 'otlp.jsonl'));
  const { records, issues } = decodeRecording(dir);
  const events = records.filter((r) => r.kind === 'event');
  const spans = records.filter((r) => r.kind === 'span');
  const ids = transcriptIds(dir, agent);
  const sessionOf = (r) =>
    attrText(r.attributes, 'conversation.id') ||
    attrText(r.attributes, 'session.id') ||
    attrText(r.attributes, 'gen_ai.conversation.id');
  const withSession = [...events, ...spans].filter((r) => sessionOf(r) !== '');
  const toolIds =
    agent === 'codex'
      ? events.filter((e) => e.name === 'codex.tool_result').map((e) => attrText(e.attributes, 'call_id'))
      : spans.filter((s) => s.name === 'tool_call').map((s) => attrText(s.attributes, 'gen_ai.tool.call_id'));
  const joinedTools = toolIds.filter((id) => ids.calls.has(id)).length;
  const telemetrySessions = new Set(withSession.map(sessionOf));
  return {
    requests: countBy(
      requests.map((r) => `${r.path} ${r.contentType}${r.contentEncoding ? ` ${r.contentEncoding}` : ''}`),
    ),
    decodeIssues: countBy(issues),
    events: countBy(events.map((e) => e.name)),
    spans: countBy(spans.map((s) => s.name)),
    metrics: countBy(records.filter((r) => r.kind === 'metric').map((m) => m.name)),
    unknown: records.filter((r) => r.kind === 'unknown').length,
    joins: {
      recordsWithSession: withSession.length,
      records: events.length + spans.length,
      telemetrySessions: telemetrySessions.size,
      telemetrySessionsWithTranscript: [...telemetrySessions].filter((id) => ids.sessions.has(id)).length,
      transcriptSessions: ids.sessions.size,
      toolResults: toolIds.length,
      toolResultsWithCall: joinedTools,
      toolResultsJoinedPercent: percent(joinedTools, toolIds.length),
      transcriptCalls: ids.calls.size,
      transcriptCallsWithToolResult: [...ids.calls].filter((id) => toolIds.includes(id)).length,
    },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [agent, dir] = process.argv.slice(2);
  console.log(JSON.stringify(telemetryManifest(dir, agent), null, 1));
}
