/**
 * The team schema's migrations: append-only and numbered (never edit one that shipped; add the next). They run in one
 * transaction under an advisory lock, so two team servers starting at once migrate once, and a failed step leaves
 * the schema as it was.
 */
import { TeamSchemaAheadError } from '../errors.js';
import type { Sql, TxSql } from './db.js';
import { DOC_STARTS_MIGRATION } from './doc-starts.js';
import { LATER_MIGRATIONS } from './later-migrations.js';
import { LOWERED_FROM_MIGRATION } from './lowered.js';
import { CHUNK_UPLOADER_MIGRATION, SUBAGENT_PROMPTS_MIGRATION, UNIQUE_UID_MIGRATION } from './migrations-tiers.js';
import { OUTPUT_UNRECORDED_MIGRATION } from './output-unrecorded.js';
import { COPIED_THREADS_MIGRATION } from './search-postings.js';
import { SESSION_LIST_MIGRATION } from './session-sql.js';
import { TITLED_MIGRATION } from './titled.js';
import { USAGE_ROLLUP_MIGRATION } from './usage-rollup.js';
import { USAGE_SUMS_MIGRATION } from './usage-sums.js';
import { USAGE_UNRECORDED_MIGRATION } from './usage-unrecorded.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  /** What the step does after its SQL, in the same transaction (what SQL alone cannot: a key's HMAC). */
  readonly run?: ((tx: TxSql) => Promise<void>) | undefined;
  /** Tables rewritten (`VACUUM FULL`, outside the transaction) once the step was just applied: what it left goes. */
  readonly vacuum?: readonly string[] | undefined;
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'people, devices and viewers',
    sql: `
      create table people (
        id bigserial primary key,
        name text not null unique,
        salt text not null check (salt ~ '^[0-9a-f]{64}$'),
        created_at timestamptz not null default now(),
        revoked_at timestamptz
      );
      create table devices (
        id bigserial primary key,
        person_id bigint not null references people(id) on delete cascade,
        name text not null,
        token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
        created_at timestamptz not null default now(),
        revoked_at timestamptz,
        last_push_at timestamptz,
        agentdash text,
        hostname text,
        platform text,
        unique (person_id, name)
      );
      create table viewers (
        id bigserial primary key,
        name text not null unique,
        token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
        created_at timestamptz not null default now(),
        revoked_at timestamptz
      );`,
  },
  {
    version: 2,
    name: 'pushed sessions, calls and responses',
    sql: `
      create table sessions (
        person_id bigint not null references people(id) on delete cascade,
        uid text not null check (uid ~ '^[0-9a-f]{32}$'),
        device_id bigint references devices(id) on delete set null,
        tier text not null check (tier in ('summary', 'metadata', 'full')),
        digest text not null,
        pushed_at timestamptz not null default now(),
        agent text not null,
        session_id text not null,
        project_hash text not null,
        project_dir text,
        project_path text,
        title text,
        started_at text,
        started_ms bigint,
        ended_ms bigint,
        models text[] not null,
        versions text[] not null,
        tool_calls integer not null,
        errors integer not null,
        has_errors boolean not null,
        cost_usd double precision,
        tokens bigint not null,
        body jsonb not null,
        primary key (person_id, uid)
      );
      create table calls (
        person_id bigint not null,
        uid text not null,
        seq integer not null,
        call_id text not null,
        tool text not null,
        canonical text not null,
        ts text,
        ts_ms bigint,
        status text not null,
        category text,
        severity text,
        duration_ms double precision,
        exit_code integer,
        agent_id text,
        summary text,
        error_message text,
        primary key (person_id, uid, seq),
        foreign key (person_id, uid) references sessions(person_id, uid) on delete cascade
      );
      create table responses (
        person_id bigint not null,
        uid text not null,
        seq integer not null,
        ts_ms bigint,
        model text not null,
        agent_id text,
        input bigint not null,
        output bigint not null,
        cache_creation bigint not null,
        cache_creation_1h bigint not null,
        cache_read bigint not null,
        reasoning bigint not null,
        primary key (person_id, uid, seq),
        foreign key (person_id, uid) references sessions(person_id, uid) on delete cascade
      );`,
  },
  {
    version: 3,
    name: 'full-tier transcripts in content-addressed chunks',
    sql: `
      create table chunks (
        sha256 text primary key check (sha256 ~ '^[0-9a-f]{64}$'),
        bytes bytea not null,
        stored_at timestamptz not null default now()
      );
      create table files (
        person_id bigint not null,
        uid text not null,
        seq integer not null,
        name text not null,
        role text not null,
        agent_id text,
        bytes bigint not null,
        chunks text[] not null,
        primary key (person_id, uid, seq),
        foreign key (person_id, uid) references sessions(person_id, uid) on delete cascade
      );
      create table file_chunks (
        person_id bigint not null,
        uid text not null,
        sha256 text not null,
        primary key (person_id, uid, sha256),
        foreign key (person_id, uid) references sessions(person_id, uid) on delete cascade
      );
      create index file_chunks_sha256 on file_chunks (sha256);`,
  },
  {
    version: 4,
    name: 'indexes for the dashboard',
    sql: `
      create index sessions_started on sessions (started_ms desc nulls last);
      create index sessions_person_started on sessions (person_id, started_ms desc);
      create index sessions_device on sessions (device_id);
      create index responses_ts on responses (ts_ms);
      create index calls_tool on calls (canonical);
      create index sessions_search on sessions using gin (to_tsvector('simple', coalesce(title, '')));`,
  },
  {
    version: 5,
    name: 'sessions and files by uid alone (the dashboard names sessions by uid)',
    sql: `
      create index sessions_uid on sessions (uid);
      create index files_uid on files (uid);`,
  },
  {
    version: 6,
    name: 'full-text search over full-tier transcripts',
    sql: `
      create table docs (
        person_id bigint not null,
        uid text not null,
        seq integer not null,
        kind text not null,
        call_id text,
        tool text,
        agent_id text,
        ts text,
        body text not null,
        words tsvector not null,
        primary key (person_id, uid, seq),
        foreign key (person_id, uid) references sessions(person_id, uid) on delete cascade
      );
      create index docs_words on docs using gin (words);`,
  },
  {
    version: 7,
    name: "search by each session's words; the documents' text is read back from the chunks",
    sql: `
      drop table docs;
      -- a session's words, in parts (a tsvector holds at most 1 MB of words); filled when a full-tier session is
      -- stored, and for the sessions stored before, from their chunks when the server starts (indexMissingDocs)
      create table search_words (
        person_id bigint not null,
        uid text not null,
        part integer not null,
        words tsvector not null,
        primary key (person_id, uid, part),
        foreign key (person_id, uid) references sessions(person_id, uid) on delete cascade
      );
      -- a small pending list: the default (4 MB) stays allocated in the index once a burst of pushes filled it
      create index search_words_gin on search_words using gin (words) with (gin_pending_list_limit = 256);`,
  },
  {
    version: 8,
    name: "telemetry sent by devices straight to the team server, at each device's tier",
    sql: `
      alter table devices add column otel_tier text not null default 'summary'
        check (otel_tier in ('summary', 'metadata', 'full'));
      create table otel_events (
        person_id bigint not null references people(id) on delete cascade,
        key text not null,
        device_id bigint references devices(id) on delete set null,
        tier text not null,
        session_id text not null,
        name text not null,
        time_ms double precision not null,
        prompt_id text not null,
        request_id text not null,
        tool_use_id text not null,
        tool_name text not null,
        model text not null,
        duration_ms double precision,
        ttft_ms double precision,
        success boolean,
        cost_usd double precision,
        input_tokens bigint,
        output_tokens bigint,
        cache_read_tokens bigint,
        cache_creation_tokens bigint,
        received_at timestamptz not null default now(),
        record jsonb not null,
        primary key (person_id, key)
      );
      create index otel_events_session on otel_events (person_id, session_id, name);
      create table otel_spans (
        person_id bigint not null references people(id) on delete cascade,
        trace_id text not null,
        span_id text not null,
        device_id bigint references devices(id) on delete set null,
        tier text not null,
        parent_span_id text not null,
        session_id text not null,
        name text not null,
        start_ms double precision not null,
        end_ms double precision not null,
        duration_ms double precision not null,
        request_id text not null,
        tool_use_id text not null,
        received_at timestamptz not null default now(),
        record jsonb not null,
        primary key (person_id, trace_id, span_id)
      );
      create index otel_spans_session on otel_spans (person_id, session_id, name);
      create table otel_metrics (
        person_id bigint not null references people(id) on delete cascade,
        key text not null,
        device_id bigint references devices(id) on delete set null,
        tier text not null,
        session_id text not null,
        name text not null,
        time_ms double precision not null,
        value double precision not null,
        received_at timestamptz not null default now(),
        record jsonb not null,
        primary key (person_id, key)
      );
      create index otel_metrics_session on otel_metrics (person_id, session_id, name);
      create table otel_unknown (
        person_id bigint not null references people(id) on delete cascade,
        key text not null,
        device_id bigint references devices(id) on delete set null,
        tier text not null,
        signal text not null,
        reason text not null,
        received_at timestamptz not null default now(),
        record jsonb not null,
        primary key (person_id, key)
      );`,
  },
  {
    version: 9,
    name: "the sessions list's columns, without the body, kept by the sessions' own writes",
    sql: SESSION_LIST_MIGRATION,
  },
  {
    version: 10,
    name: "usage's response sums per session, quarter-hour, model and band; the time breakdown in session_list",
    sql: USAGE_SUMS_MIGRATION,
  },
  {
    version: 11,
    name: "usage's sums per person, device, agent, project, quarter-hour, model and band",
    sql: USAGE_ROLLUP_MIGRATION,
  },
  {
    version: 12,
    name: 'where each search document of a full-tier session starts in its chunks',
    sql: DOC_STARTS_MIGRATION,
  },
  {
    version: 13,
    name: "the metadata tier's subagents told by their call's summary, their prompts gone",
    sql: SUBAGENT_PROMPTS_MIGRATION,
  },
  {
    version: 14,
    name: "a session's uid is one person's: unique across people",
    sql: UNIQUE_UID_MIGRATION,
  },
  {
    version: 15,
    name: 'who uploaded each transcript chunk: an erased person takes those no session refers to',
    sql: CHUNK_UPLOADER_MIGRATION,
  },
  {
    version: 16,
    name: "which responses recorded no input, and how many in usage's sums",
    sql: USAGE_UNRECORDED_MIGRATION,
  },
  {
    version: 17,
    name: "which responses kept only the stream's first output count, and how many in usage's sums",
    sql: OUTPUT_UNRECORDED_MIGRATION,
  },
  {
    version: 18,
    name: "whether each session has a title on its laptop, for the list's rule of empty sessions",
    sql: TITLED_MIGRATION,
  },
  {
    version: 19,
    name: 'the words of full-tier sessions whose copied subagent records are a thread, indexed again with them',
    sql: COPIED_THREADS_MIGRATION,
  },
  {
    version: 20,
    name: 'the tier each session was lowered from, told again to a batch sent again',
    sql: LOWERED_FROM_MIGRATION,
  },
  ...LATER_MIGRATIONS,
];

/**
 * Creates the schema and applies the migrations it lacks (all of `list`), in one transaction under an advisory lock
 * keyed by the schema's name. Returns the versions applied (none when it was up to date).
 */
export async function migrate(sql: Sql, schema: string, list: readonly Migration[] = migrations): Promise<number[]> {
  const applied = await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtextextended(${`agentdash-migrate:${schema}`}, 0))`;
    await tx.unsafe(`create schema if not exists "${schema}"`);
    await tx.unsafe(`set local search_path to "${schema}"`);
    await tx.unsafe(`create table if not exists migrations (
      version integer primary key, name text not null, applied_at timestamptz not null default now())`);
    const done = new Set((await tx<{ version: number }[]>`select version from migrations`).map((r) => r.version));
    const newest = Math.max(0, ...list.map((m) => m.version));
    const ahead = [...done].filter((v) => v > newest);
    if (ahead.length > 0) {
      throw new TeamSchemaAheadError(
        `the schema "${schema}" is at version ${Math.max(...ahead)}, newer than this agentdash knows (${newest}): upgrade agentdash on the team server`,
      );
    }
    const applied: number[] = [];
    for (const m of [...list].sort((a, b) => a.version - b.version)) {
      if (done.has(m.version)) continue;
      await tx.unsafe(m.sql);
      await m.run?.(tx);
      await tx`insert into migrations (version, name) values (${m.version}, ${m.name})`;
      applied.push(m.version);
    }
    return applied;
  });
  const vacuum = list.filter((m) => applied.includes(m.version)).flatMap((m) => m.vacuum ?? []);
  for (const table of new Set(vacuum)) await sql.unsafe(`vacuum full "${schema}"."${table}"`);
  return applied;
}
