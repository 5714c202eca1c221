/** Small Codex CLI rollouts for tests: `{timestamp, type, payload}` lines as the real client writes them. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One line: seconds after the session's start, its type, its payload. */
export type RolloutLine = readonly [second: number, type: string, payload: unknown];

/** A one-pixel PNG as a data URL (an image a rollout carries inline). */
export const PIXEL_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGBgAAAABQABpfZFQAAAAABJRU5ErkJggg==';

/**
 * The rollout of session `id` under `home/sessions/2026/11/23`, started at 00:59:20 by Codex `version`: its
 * `session_meta`, then `lines`. Returns its path.
 */
export function writeRollout(home: string, id: string, lines: readonly RolloutLine[], version = '0.98.0'): string {
  const dir = join(home, 'sessions/2026/11/23');
  mkdirSync(dir, { recursive: true });
  const at = (s: number) => `2026-11-23T00:59:${String(20 + s).padStart(2, '0')}.000Z`;
  const meta = { id, timestamp: at(0), cwd: '/home/user/proj/image', originator: 'codex_exec', cli_version: version };
  const all: RolloutLine[] = [[0, 'session_meta', meta], ...lines];
  const file = join(dir, `rollout-2026-11-23T00-59-20-${id}.jsonl`);
  writeFileSync(
    file,
    `${all.map(([s, type, payload]) => JSON.stringify({ timestamp: at(s), type, payload })).join('\n')}\n`,
  );
  return file;
}

/** A user's message of text, an image alone, an assistant's reply: `response_item` lines. */
export const userSays = (s: number, text: string): RolloutLine => [
  s,
  'response_item',
  { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
];
export const userImage = (s: number, url = PIXEL_PNG): RolloutLine => [
  s,
  'response_item',
  { type: 'message', role: 'user', content: [{ type: 'input_image', image_url: url }] },
];
export const agentSays = (s: number, text: string): RolloutLine => [
  s,
  'response_item',
  { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
];

const USAGE = {
  input_tokens: 4658,
  cached_input_tokens: 0,
  output_tokens: 38,
  reasoning_output_tokens: 0,
  total_tokens: 4696,
};

/**
 * The image scenario as Codex 0.98 wrote it (corpus-agents codex 0.98.0, lines 9-14), the image a pixel: a view_image
 * call, its output, the image as a user message of its own, the client's event of it, the response's tokens, a reply.
 */
export const viewImageLines = (): RolloutLine[] => [
  userSays(1, 'Describe pic.png'),
  [
    2,
    'response_item',
    { type: 'function_call', name: 'view_image', arguments: '{"path":"pic.png"}', call_id: 'call_img' },
  ],
  [3, 'response_item', { type: 'function_call_output', call_id: 'call_img', output: 'attached local image path' }],
  userImage(3),
  [3, 'event_msg', { type: 'user_message', message: '', images: [PIXEL_PNG] }],
  [3, 'event_msg', { type: 'token_count', info: { total_token_usage: USAGE, last_token_usage: USAGE } }],
  agentSays(4, 'A red square.'),
];
