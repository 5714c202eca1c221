/**
 * The dashboard's data read from a session embedded in the page (an HTML export) instead of over HTTP: the same
 * answers as the API's session routes, for the one session the file holds.
 */
import { clip, findInThreads, STRING_LIMIT } from '@agentdash/api';
import { noteFields, plainText } from '@agentdash/core/present';
import type {
  AgentsResponse,
  AssistantItemDto,
  CallDto,
  EventDto,
  EventsPage,
  FilesResponse,
  FindResponse,
  IssueDto,
  SessionDetail,
  SessionErrorsResponse,
} from './types';

export interface StaticSessionData {
  readonly version: 1;
  readonly exportedAt: string;
  readonly sessionId: string;
  readonly redaction: {
    readonly redacted: boolean;
    readonly total: number;
    /** The secrets redacted, each once (`total` counts every redaction). */
    readonly secrets: number;
    readonly summary: string;
  };
  /** Every agent's label and resume command (`/agents`); absent in exports made before it was embedded. */
  readonly agents?: AgentsResponse['agents'];
  readonly detail: SessionDetail;
  readonly issues: readonly IssueDto[];
  /** Every errored call (subagents' included) and where it shows, as `/errors` answers. */
  readonly errors: SessionErrorsResponse['errors'];
  /** What its file tools did to each file, as `/files` answers; absent in exports made before it was embedded. */
  readonly files?: FilesResponse;
  /** Events per thread: "" is the main thread, else a subagent's key. */
  readonly threads: Readonly<Record<string, readonly EventDto[]>>;
  /** Calls cut in the pages, whole. */
  readonly calls: Readonly<Record<string, CallDto>>;
  /** Where calls inside subagents show. */
  readonly locate: Readonly<Record<string, { index: number; expand: string[] }>>;
}

type Query = Readonly<Record<string, string | number | boolean | undefined | null>>;

/** What is not in the file (another session, the sessions list): undefined, answered as 404 by the client. */
export function answerStatic(data: StaticSessionData, path: string, query: Query): unknown {
  if (path === '/health') {
    return { success: true, paths: 0, index: { state: 'ready' }, samples: false };
  }
  if (path === '/agents') return { agents: data.agents ?? [] } satisfies AgentsResponse;
  const m = /^\/sessions\/([^/]+)(?:\/(events|issues|errors|files|find|calls|locate)(?:\/(.+))?)?$/.exec(path);
  if (!m || decodeURIComponent(m[1] ?? '') !== data.sessionId) return undefined;
  const what = m[2];
  const rest = m[3] === undefined ? undefined : decodeURIComponent(m[3]);
  switch (what) {
    case undefined:
      return data.detail;
    case 'issues':
      return { issues: data.issues };
    case 'errors':
      return { errors: data.errors } satisfies SessionErrorsResponse;
    case 'files':
      return data.files;
    case 'find': {
      const q = typeof query.q === 'string' ? query.q : '';
      // a note as the timeline shows it (`NoteText`), as the server's find reads it
      const noteOf = (e: { kind: string; text?: string }) => (e.kind === 'note' ? noteFields(e.text ?? '') : undefined);
      return {
        query: q,
        ...findInThreads((key) => wholeThread(data, key ?? ''), q, noteOf, plainText),
      } satisfies FindResponse;
    }
    case 'events': {
      const agent = typeof query.agent === 'string' && query.agent !== '' ? query.agent : '';
      const events = data.threads[agent];
      if (!events) return undefined;
      const offset = Math.max(0, Math.min(Number(query.offset ?? 0) || 0, events.length));
      const limit = Math.max(1, Number(query.limit ?? 100) || 100);
      const page: EventsPage = {
        sessionId: data.sessionId,
        agent: agent === '' ? null : agent,
        total: events.length,
        offset,
        events: events.slice(offset, offset + limit),
      };
      return page;
    }
    case 'calls': {
      const call = rest === undefined ? undefined : (data.calls[rest] ?? findCall(data, rest));
      // `chars`: each text cut there, as the server cuts it (the export holds every call whole)
      const asked = Number(query.chars);
      if (call === undefined || query.chars === undefined || !Number.isFinite(asked)) return call;
      const state = { truncated: false };
      const cut = clip(call, state, Math.max(STRING_LIMIT, asked));
      return { ...cut, truncated: state.truncated } satisfies CallDto;
    }
    case 'locate': {
      if (rest === undefined) return undefined;
      const known = data.locate[rest];
      if (known) return known;
      const index = (data.threads[''] ?? []).findIndex(
        (e) => e.kind === 'assistant' && e.items.some((i) => i.kind === 'tool-call' && i.id === rest),
      );
      return index < 0 ? undefined : { index, expand: [] };
    }
    default:
      return undefined;
  }
}

function findCall(data: StaticSessionData, id: string): CallDto | undefined {
  for (const events of Object.values(data.threads)) {
    for (const e of events) {
      if (e.kind !== 'assistant') continue;
      for (const item of e.items) if (item.kind === 'tool-call' && item.id === id) return item;
    }
  }
  return undefined;
}

/** A thread's events with the calls the pages cut put back whole, so that find reads what the server would. */
function wholeThread(data: StaticSessionData, key: string): readonly EventDto[] | undefined {
  const events = data.threads[key];
  if (!events || Object.keys(data.calls).length === 0) return events;
  const whole = (item: AssistantItemDto): AssistantItemDto =>
    item.kind === 'tool-call' && item.truncated ? (data.calls[item.id] ?? item) : item;
  return events.map((e) => (e.kind === 'assistant' ? { ...e, items: e.items.map(whole) } : e));
}
