/**
 * Replaying a recorded OTLP export to a receiver: the order the requests are sent in, and which of them are sent again
 * to see that a repeat stores nothing new. Shared by the laptop's and the team server's receiver suites.
 */
import { decodeRecorded, type RecordedRequest } from './otel-recordings.js';
import { fullTests } from './shared.js';

/** A fixed shuffle (no randomness in tests): every third item first, then the rest backwards. */
export function shuffled<T>(items: readonly T[]): T[] {
  return [...items.filter((_, i) => i % 3 === 0), ...items.filter((_, i) => i % 3 !== 0).reverse()];
}

/** The kinds of record a request carries: its path with each event's, span's or metric's name (or why unknown). */
export function recordKindsOf(request: RecordedRequest): Set<string> {
  return new Set(
    decodeRecorded(request).map((r) => `${request.path} ${r.kind} ${r.kind === 'unknown' ? r.reason : r.name}`),
  );
}

/**
 * The requests sent again after the first time: every one of a short recording (the bundled trimmed ones) and under
 * `fullTests`; of a longer one (../shared/corpus-otel's), a fixed sample of about `most`, evenly spread over the
 * recording, plus the first request of each kind of record (`recordKindsOf`: each log event, span and metric name of
 * each signal). A repeat of any of them must store nothing: each kind is sent again at least once.
 */
export function repeatedRequests<T extends RecordedRequest>(requests: readonly T[], most = 64): T[] {
  if (fullTests || requests.length <= most) return [...requests];
  const step = Math.ceil(requests.length / most);
  const seen = new Set<string>();
  const firstOfKind = new Set<number>();
  for (const [i, request] of requests.entries()) {
    for (const kind of recordKindsOf(request)) {
      if (seen.has(kind)) continue;
      seen.add(kind);
      firstOfKind.add(i);
    }
  }
  return requests.filter((_, i) => i % step === 0 || firstOfKind.has(i));
}
