/**
 * Telemetry tables: what an agent's own OpenTelemetry export said (events, spans, metric points), as received.
 * Not derived from transcripts (nothing could rebuild them): a rebuild of the derived tables keeps them
 * (`TELEMETRY_TABLES`), and they are created on first use, `IF NOT EXISTS` (an index that never receives
 * telemetry carries none of their pages). Each row keeps its whole neutral record (`record`, JSON) beside
 * the columns the joins and sums read:
 * - `session_id` = the transcript's `sessionId`; `tool_use_id` = a call's id; `request_id` = a response's
 *   `requestId` (joined when asked, so whichever of telemetry and transcript arrives first does not matter);
 * - `key` makes a retried export a no-op: a span is its trace and span id, an event or a metric point the hash of its
 *   whole record.
 */

export const TELEMETRY_SCHEMA = `
  CREATE TABLE IF NOT EXISTS otel_events (
    key TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    name TEXT NOT NULL,
    time_ms REAL NOT NULL,
    prompt_id TEXT NOT NULL,
    request_id TEXT NOT NULL,
    tool_use_id TEXT NOT NULL,
    tool_name TEXT NOT NULL,
    model TEXT NOT NULL,
    duration_ms REAL,
    ttft_ms REAL,
    success INTEGER,
    cost_usd REAL,
    input_tokens INTEGER,
    output_tokens INTEGER,
    cache_read_tokens INTEGER,
    cache_creation_tokens INTEGER,
    received_ms INTEGER NOT NULL,
    record TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS otel_events_session ON otel_events(session_id, name);
  CREATE INDEX IF NOT EXISTS otel_events_request ON otel_events(request_id) WHERE request_id <> '';
  CREATE INDEX IF NOT EXISTS otel_events_tool ON otel_events(tool_use_id) WHERE tool_use_id <> '';

  CREATE TABLE IF NOT EXISTS otel_spans (
    trace_id TEXT NOT NULL,
    span_id TEXT NOT NULL,
    parent_span_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    name TEXT NOT NULL,
    start_ms REAL NOT NULL,
    end_ms REAL NOT NULL,
    duration_ms REAL NOT NULL,
    request_id TEXT NOT NULL,
    tool_use_id TEXT NOT NULL,
    received_ms INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (trace_id, span_id)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS otel_spans_session ON otel_spans(session_id, name);
  CREATE INDEX IF NOT EXISTS otel_spans_parent ON otel_spans(parent_span_id) WHERE parent_span_id <> '';

  CREATE TABLE IF NOT EXISTS otel_metrics (
    key TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    name TEXT NOT NULL,
    time_ms REAL NOT NULL,
    value REAL NOT NULL,
    received_ms INTEGER NOT NULL,
    record TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS otel_metrics_session ON otel_metrics(session_id, name);

  -- Records of a shape not modelled (histograms, summaries, a span without id): kept raw.
  CREATE TABLE IF NOT EXISTS otel_unknown (
    key TEXT PRIMARY KEY,
    signal TEXT NOT NULL,
    reason TEXT NOT NULL,
    received_ms INTEGER NOT NULL,
    record TEXT NOT NULL
  ) WITHOUT ROWID;
`;

/** Tables no rebuild or reset of derived data may drop or empty. */
export const TELEMETRY_TABLES = ['otel_events', 'otel_spans', 'otel_metrics', 'otel_unknown'] as const;

/**
 * The telemetry events whose durations are the model's measured time: its requests, those that failed too (an
 * `api_error`, as the transcripts' time partition counts a failed request and its retry's wait as the model's).
 */
export const MODEL_TIME_EVENTS = "('api_request', 'api_error')";

/** The telemetry events that are measured tool runs (a `tool_result` with a duration): `measuredToolRuns`. */
export const MEASURED_RUN = "name = 'tool_result' AND duration_ms IS NOT NULL";
