/**
 * The words of a Claude Code `api_error` note. The client writes no `content` for it: what failed is in `error`
 * (`formatted` from about 2.1 on, else `message`; earlier clients the API's own body, `error.error.error`), and its
 * retry in `retryAttempt`, `maxRetries` and `retryInMs`. Without these words the note said "API error:" and nothing.
 */
import { isRecord, num, str } from '../../internal/guards.js';

/** What failed, as the client wrote it: its formatted line, else its message, else the API's error type and message. */
function whatFailed(error: unknown): string | undefined {
  if (!isRecord(error)) return str(error);
  const formatted = str(error.formatted) ?? str(error.message);
  if (formatted) return formatted;
  // the API's body: { type: 'error', error: { type, message } }
  const body = isRecord(error.error) && isRecord(error.error.error) ? error.error.error : undefined;
  const words = [str(body?.type) ?? str(error.type), str(body?.message)].filter((w) => w !== undefined && w !== '');
  const status = num(error.status);
  if (status !== undefined && status > 0) words.unshift(String(status));
  return words.length > 0 ? words.join(' ') : undefined;
}

/** `529 Overloaded · retry 1 of 10 in 0.6 s`; undefined when the record says nothing of what failed or of a retry. */
export function apiErrorText(raw: Record<string, unknown>): string | undefined {
  const failed = whatFailed(raw.error);
  const attempt = num(raw.retryAttempt);
  const most = num(raw.maxRetries);
  const wait = num(raw.retryInMs);
  const retry =
    attempt !== undefined && attempt > 0
      ? `retry ${attempt}${most !== undefined && most > 0 ? ` of ${most}` : ''}${
          wait !== undefined && wait > 0 ? ` in ${(wait / 1000).toFixed(1)} s` : ''
        }`
      : undefined;
  const text = [failed, retry].filter((w) => w !== undefined && w !== '').join(' · ');
  return text === '' ? undefined : text;
}
