// The OpenAI Responses and Gemini API stream encodings of one scripted step (see scripted-model.mjs): what Codex CLI
// and Gemini CLI read. Each writes the whole response and returns when its first byte left.

/** A Responses API stream: created, one `output_item.done` per message or function call, completed with usage. */
export function responsesStream(res, { id, model, text, calls, usage }) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (o) => res.write(`event: ${o.type}\ndata: ${JSON.stringify(o)}\n\n`);
  const response = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model, status: 'in_progress' };
  send({ type: 'response.created', response });
  const firstByteAt = new Date().toISOString();
  const output = [];
  if (text) {
    const item = {
      type: 'message',
      id: `msg_${id}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text, annotations: [] }],
    };
    send({ type: 'response.output_item.added', output_index: 0, item: { ...item, content: [] } });
    send({ type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: text });
    send({ type: 'response.output_item.done', output_index: output.length, item });
    output.push(item);
  }
  for (const call of calls) {
    const item = {
      type: 'function_call',
      id: `fc_${call.id}`,
      status: 'completed',
      name: call.name,
      arguments: JSON.stringify(call.args),
      call_id: call.id,
    };
    send({ type: 'response.output_item.done', output_index: output.length, item });
    output.push(item);
  }
  send({ type: 'response.completed', response: { ...response, status: 'completed', output, usage } });
  res.end();
  return firstByteAt;
}

/** A Gemini `streamGenerateContent?alt=sse` stream: text, then function calls, then the usage chunk. */
export function geminiStream(res, { id, model, text, calls, usage }) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (parts, finish, withUsage) =>
    res.write(
      `data: ${JSON.stringify({
        candidates: [{ content: { role: 'model', parts }, index: 0, ...(finish ? { finishReason: 'STOP' } : {}) }],
        ...(withUsage ? { usageMetadata: usage } : {}),
        modelVersion: model,
        responseId: id,
      })}\n\n`,
    );
  const parts = calls.map((c) => ({ functionCall: { id: c.id, name: c.name, args: c.args } }));
  if (text) send([{ text }], parts.length === 0, parts.length === 0);
  const firstByteAt = new Date().toISOString();
  if (parts.length > 0) send(parts, true, true);
  if (!text && parts.length === 0) send([{ text: '' }], true, true);
  res.end();
  return firstByteAt;
}

/**
 * A Gemini `generateContent` side request (the client's model router, next-speaker and loop checks): a JSON answer
 * shaped by the schema it asks for, "simple" and "the user speaks next".
 */
export function geminiSide(body, model) {
  const config = body.generationConfig ?? body.config ?? {};
  const schema = config.responseJsonSchema ?? config.responseSchema ?? {};
  const props = Object.keys(schema.properties ?? {});
  const answer = {};
  for (const p of props) {
    if (/score/.test(p)) answer[p] = 10;
    else if (p === 'next_speaker') answer[p] = 'user';
    else if (p === 'model_choice') answer[p] = 'flash';
    else if (/^is_|confidence/.test(p)) answer[p] = p.startsWith('is_') ? false : 0;
    else answer[p] = 'simple';
  }
  const text = props.length > 0 ? JSON.stringify(answer) : 'ok';
  return {
    candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
    modelVersion: model,
  };
}
