import { claudeCodeTelemetryEnv, codexTelemetryToml, geminiTelemetrySettings } from '@agentdash/core';
import { type AgentId, agentInfo } from '@agentdash/core/base';
import { agentArg, agentOption, portArg } from '../args.js';
import { UsageError } from '../errors.js';
import { formatDuration, formatRange, plural, terminalText } from '../format.js';
import type { OtelSetupJson, OtelStatusJson } from '../output/json-types.js';
import { COMMON_HELP, type CommandSpec, writeJson } from './common.js';

/** The OTLP/HTTP port `serve` listens on unless told otherwise (the OTLP default). */
const DEFAULT_OTLP_PORT = 4318;

/** The agents `otel setup` has settings for (their telemetry is read by core's otel/): Claude Code's are the default. */
export const TELEMETRY_AGENTS = ['claude', 'codex', 'gemini'] as const satisfies readonly AgentId[];
type TelemetryAgent = (typeof TELEMETRY_AGENTS)[number];

/** `claude|codex|gemini`, as the usage lines write the choice of `--agent`. */
export const telemetryAgentChoice = (agents: readonly AgentId[] = TELEMETRY_AGENTS): string => agents.join('|');

const isTelemetryAgent = (agent: AgentId): agent is TelemetryAgent =>
  (TELEMETRY_AGENTS as readonly AgentId[]).includes(agent);

export const otelCommand: CommandSpec = {
  name: 'otel',
  usage: `agentdash otel [setup [--otlp-port N] [--agent ${telemetryAgentChoice()}] | status] [--json]`,
  summary: "Agents' own telemetry (OpenTelemetry): how to send it here, and what arrived",
  help: `"agentdash serve" also receives OTLP/HTTP telemetry on 127.0.0.1:4318 (--otlp-port N), JSON or protobuf.
Claude Code then reports the time each API request and each tool call really took, and its own cost; AgentDash
joins them to the transcripts by session, call and request id. Codex CLI and Gemini CLI report theirs too.

  setup     print the "env" lines to add to ~/.claude/settings.json (default); AgentDash never writes it;
            --agent codex: the [otel] lines of ~/.codex/config.toml; --agent gemini: ~/.gemini/settings.json's
  status    what the index holds: events, spans, metric points, how many join the transcripts, and the sessions
            known only from telemetry

${COMMON_HELP}`,
  options: { ...agentOption, 'otlp-port': { type: 'string' } },
  async run(ctx, positionals) {
    const [action = 'setup', ...rest] = positionals;
    if (rest.length > 0) throw new UsageError(`otel ${action} takes no further argument, got "${rest[0]}"`);
    if (action === 'setup') {
      // the port the agents are told: one a running `serve` listens on, never "any"
      const port = portArg(ctx.values, 'otlp-port', DEFAULT_OTLP_PORT, false);
      const endpoint = `http://127.0.0.1:${port}`;
      const env = claudeCodeTelemetryEnv(endpoint);
      const codex = { file: '~/.codex/config.toml', toml: codexTelemetryToml(endpoint) };
      const gemini = { file: '~/.gemini/settings.json', settings: geminiTelemetrySettings(endpoint) };
      if (ctx.json) {
        const out: OtelSetupJson = { env, codex, gemini };
        writeJson(ctx, out);
        return;
      }
      const running = `and keep "agentdash serve${port === DEFAULT_OTLP_PORT ? '' : ` --otlp-port ${port}`}" running.\n`;
      const { agent } = agentArg(ctx.values);
      if (agent !== undefined && !isTelemetryAgent(agent)) {
        throw new UsageError(
          `AgentDash reads no telemetry of ${agentInfo(agent).label}: otel setup has settings for ` +
            `${TELEMETRY_AGENTS.map((a) => agentInfo(a).label).join(', ')} (--agent ${telemetryAgentChoice()})`,
        );
      }
      if (agent === 'codex') {
        ctx.io.stdout.write(`Add to ${codex.file}, then start Codex CLI again:\n\n${codex.toml}\n${running}`);
        return;
      }
      if (agent === 'gemini') {
        ctx.io.stdout.write(
          `Merge into ${gemini.file}, then start Gemini CLI again:\n\n` +
            `${JSON.stringify(gemini.settings, null, 2)}\n\n${running}`,
        );
        return;
      }
      ctx.io.stdout.write(
        `Add to ~/.claude/settings.json (merge into "env" if it has one), then start Claude Code again:\n\n` +
          `${JSON.stringify({ env }, null, 2)}\n\n${running}` +
          'Codex CLI and Gemini CLI: agentdash otel setup --agent codex (or gemini).\n',
      );
      return;
    }
    if (action !== 'status') throw new UsageError(`unknown otel action "${action}" (setup, status)`);
    await ctx.refresh(await ctx.resolvePaths([]));
    const { telemetry } = await ctx.openIndex();
    const counts = telemetry.counts();
    const joins = telemetry.joins();
    const only = telemetry.telemetryOnlySessions();
    const out: OtelStatusJson = {
      ...counts,
      joins,
      telemetryOnlySessions: only.map((s) => ({
        sessionId: s.sessionId,
        client: s.client,
        firstMs: s.firstMs,
        lastMs: s.lastMs,
        apiRequests: s.apiRequests,
        toolCalls: s.toolCalls,
        costUsd: s.costUsd,
      })),
    };
    if (ctx.json) {
      writeJson(ctx, out);
      return;
    }
    ctx.io.stdout.write(
      `${plural(counts.events, 'event')}, ${plural(counts.spans, 'span')}, ${plural(counts.metrics, 'metric point')}` +
        (counts.unknown > 0 ? `, ${counts.unknown} of a shape not modelled` : '') +
        `\ntool results joined to calls: ${joins.toolResultsWithCall} of ${joins.toolResults}` +
        `\ntranscript responses with the client's request event: ${joins.transcriptRequestsWithApiRequest} of ${joins.transcriptRequests}\n`,
    );
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    for (const s of only) {
      ctx.io.stdout.write(
        `telemetry only: ${terminalText(s.sessionId)} (${terminalText(s.client)})  ` +
          `${formatRange(iso(s.firstMs), iso(s.lastMs), ctx.io.now())}  ${plural(s.apiRequests, 'API call')}, ` +
          `${plural(s.toolCalls, 'tool call')}, model ${formatDuration(s.modelMs)}` +
          `${s.costReported ? `, $${s.costUsd.toFixed(4)}` : ''}\n`,
      );
    }
  },
};
