/**
 * What Claude Code needs in its environment (`~/.claude/settings.json` → `env`) to export its telemetry to an
 * OTLP/HTTP endpoint: events (logs), traces (a beta behind its own switch), metrics. `authorization` is the header an
 * endpoint that checks a token wants (a team server: `Bearer <device token>`). Tool details (commands, file paths,
 * MCP parameters) are turned on only for an endpoint without one, the laptop's own receiver, which keeps them on this
 * machine: sent to a team server they would leave at every tier, cut only once there.
 *
 * @example
 * claudeCodeTelemetryEnv('http://127.0.0.1:4318').OTEL_EXPORTER_OTLP_ENDPOINT // 'http://127.0.0.1:4318'
 * claudeCodeTelemetryEnv('https://team.example:4317', 'Bearer adt_1').OTEL_EXPORTER_OTLP_HEADERS // 'Authorization=Bearer adt_1'
 */
export function claudeCodeTelemetryEnv(endpoint: string, authorization?: string): Readonly<Record<string, string>> {
  return {
    CLAUDE_CODE_ENABLE_TELEMETRY: '1',
    CLAUDE_CODE_ENHANCED_TELEMETRY_BETA: '1',
    OTEL_LOGS_EXPORTER: 'otlp',
    OTEL_METRICS_EXPORTER: 'otlp',
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    ...(authorization === undefined ? {} : { OTEL_EXPORTER_OTLP_HEADERS: `Authorization=${authorization}` }),
    // Tool names, commands and file paths in tool_result events (they stay on this machine).
    ...(authorization === undefined ? { OTEL_LOG_TOOL_DETAILS: '1' } : {}),
    // Events within a second, so a session shows while it runs; metrics every 10 s.
    OTEL_LOGS_EXPORT_INTERVAL: '1000',
    OTEL_METRIC_EXPORT_INTERVAL: '10000',
  };
}

/**
 * Codex CLI's `~/.codex/config.toml` lines that send its logs, traces and metrics to an OTLP/HTTP endpoint, as JSON
 * or (`binary`) protobuf: its `[otel]` table, prompts left out; `authorization` as for `claudeCodeTelemetryEnv`. The
 * recorder (scripts/record/codex) uses these lines.
 *
 * @example
 * codexTelemetryToml('http://127.0.0.1:4318').startsWith('[otel]') // true
 */
export function codexTelemetryToml(
  endpoint: string,
  protocol: 'json' | 'binary' = 'json',
  authorization?: string,
): string {
  const headers = authorization === undefined ? '' : `, headers = { "Authorization" = "${authorization}" }`;
  const exporter = (signal: string) =>
    `{ otlp-http = { endpoint = "${endpoint}/v1/${signal}", protocol = "${protocol}"${headers} } }`;
  return [
    '[otel]',
    'log_user_prompt = false',
    `exporter = ${exporter('logs')}`,
    `trace_exporter = ${exporter('traces')}`,
    `metrics_exporter = ${exporter('metrics')}`,
    '',
  ].join('\n');
}

/**
 * Gemini CLI's `~/.gemini/settings.json` `telemetry` that sends it to an OTLP/HTTP endpoint as JSON (not its default
 * gRPC). The recorder (scripts/record/gemini) uses these settings. `team`: the endpoint is a team server, so the
 * prompts Gemini CLI logs by default are left out (`logPrompts: false`), as `claudeCodeTelemetryEnv` leaves out tool
 * details.
 */
export function geminiTelemetrySettings(
  endpoint: string,
  team = false,
): {
  readonly telemetry: Readonly<Record<string, string | boolean>>;
} {
  const telemetry = { enabled: true, target: 'local', otlpEndpoint: endpoint, otlpProtocol: 'http' };
  return { telemetry: team ? { ...telemetry, logPrompts: false } : telemetry };
}
