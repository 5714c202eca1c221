/**
 * Replaying a recorded OTLP export to a receiver: the order the requests are sent in, and which of them are sent again
 * to see that a repeat stores nothing new. Shared by the laptop's and the team server's receiver suites.
 */
import { fullTests } from './shared.js';

/** A fixed shuffle (no randomness in tests): every third item first, then the rest backwards. */
export function shuffled<T>(items: readonly T[]): T[] {
  return [...items.filter((_, i) => i % 3 === 0), ...items.filter((_, i) => i % 3 !== 0).reverse()];
}

/**
 * The requests sent again after the first time: every one of a short recording (the bundled trimmed ones) and under
 * `fullTests`; of a longer one (../shared/corpus-otel's), a fixed sample of about `most`, evenly spread over the
 * recording, that holds the first request of each signal (logs, traces, metrics). A repeat of any of them must store
 * nothing: each sampled request is a repeat of the same kind as the ones left out.
 */
export function repeatedRequests<T extends { readonly path: string }>(requests: readonly T[], most = 64): T[] {
  if (fullTests || requests.length <= most) return [...requests];
  const step = Math.ceil(requests.length / most);
  const firstOfPath = new Set(
    [...new Set(requests.map((r) => r.path))].map((path) => requests.findIndex((r) => r.path === path)),
  );
  return requests.filter((_, i) => i % step === 0 || firstOfPath.has(i));
}
