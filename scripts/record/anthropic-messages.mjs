// The Anthropic Messages dialect of the scripted model (`POST …/v1/messages`, streaming server-sent events), for
// clients that only speak it (Claude Code). The step served is the scripted model's; this module only writes it the
// way the Messages API does: message_start (usage so far), one content block per text or tool call, message_delta
// (the final usage) and message_stop. A request that offers no tools is the client's own side request (a title, a
// topic check), answered with a short text without taking a step of the script.

/**
 * Usage as the Messages API bills it: the part of the prompt the previous prompt of the run already held is a cache
 * read, the rest written to the cache in 64-token steps, what remains plain input.
 */
export function anthropicUsage(prompt, cached, output) {
  const fresh = prompt - cached;
  const written = fresh - (fresh % 64);
  return {
    input_tokens: fresh - written,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: cached,
    output_tokens: output,
  };
}

/** Whether a request is one of the client's side requests rather than a turn of the conversation. */
export const isSideRequest = (body) => !Array.isArray(body.tools) || body.tools.length === 0;

/** The tool the client offers whose name ends with `suffix`, as Messages requests list tools. */
export const offeredTool = (body, suffix) =>
  (body.tools ?? []).map((t) => t.name).find((n) => typeof n === 'string' && n.endsWith(suffix));

/** Write an HTTP error the way the Messages API does. */
export function writeAnthropicError(res, status) {
  const type = status === 529 ? 'overloaded_error' : status === 429 ? 'rate_limit_error' : 'api_error';
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ type: 'error', error: { type, message: `scripted ${status}` } }));
}

/**
 * Stream one response: `id` the message id, `text` and `calls` ({ id, name, args }) its content, `usage` from
 * anthropicUsage. Returns when the first byte left.
 */
export function writeAnthropicStream(res, { id, model, text, calls, usage }) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_${id}` });
  const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const start = { ...usage, output_tokens: 1 };
  const message = { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage: start };
  send('message_start', { message: { ...message, stop_sequence: null } });
  const firstByteAt = new Date().toISOString();
  let index = 0;
  if (text) {
    send('content_block_start', { index, content_block: { type: 'text', text: '' } });
    send('content_block_delta', { index, delta: { type: 'text_delta', text } });
    send('content_block_stop', { index });
    index += 1;
  }
  for (const call of calls) {
    send('content_block_start', {
      index,
      content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
    });
    send('content_block_delta', {
      index,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.args) },
    });
    send('content_block_stop', { index });
    index += 1;
  }
  send('message_delta', {
    delta: { stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage,
  });
  send('message_stop', {});
  res.end();
  return firstByteAt;
}
