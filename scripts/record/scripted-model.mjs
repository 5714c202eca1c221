// A scripted model API on 127.0.0.1 for recording real agent clients (issue 37). It speaks four wires, each
// streamed: OpenAI Chat Completions (`POST …/chat/completions`), OpenAI Responses (`POST …/responses`, Codex CLI),
// Anthropic Messages (`POST …/messages`, Claude Code; see anthropic-messages.mjs) and the Gemini API (`POST …/models/<model>:streamGenerateContent`, Gemini CLI; `:generateContent` side requests
// such as its model router are answered without taking a step). For each scripted request it serves the next step
// of the script it was given: text, tool calls the model "decides", or an HTTP error. Every request is written to
// truth.jsonl with what was served: id, status, usage, and when the request arrived, the first byte left and the
// response ended. Not shipped to users: a recorder's tool.
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { anthropicUsage, isSideRequest, writeAnthropicError, writeAnthropicStream } from './anthropic-messages.mjs';
import { geminiSide, geminiStream, responsesStream } from './scripted-wires.mjs';

/**
 * @typedef {{ name: string, args: Record<string, unknown>, expectError?: boolean }} ScriptedCall
 * @typedef {{ text?: string, calls?: ScriptedCall[], status?: number }} Step
 * @typedef {(body: any) => Step} StepFn
 */

/** Tokens of a request as this server bills them: about four characters a token of its JSON body. */
function promptTokensOf(raw) {
  return Math.max(1, Math.round(raw.length / 4));
}

/** Which wire a request path speaks, or null (404). */
function wireOf(url) {
  const path = (url ?? '').split('?')[0];
  if (/\/chat\/completions$/.test(path)) return 'chat';
  if (/\/messages\/count_tokens$/.test(path)) return 'count-tokens';
  if (/\/messages$/.test(path)) return 'messages';
  if (/\/responses$/.test(path)) return 'responses';
  if (/:streamGenerateContent$/.test(path)) return 'gemini';
  if (/:generateContent$/.test(path)) return 'gemini-side';
  return null;
}

/** One Chat Completions stream: role chunk, text, tool calls, finish, usage. */
function chatStream(res, { id, model, text, calls, usage }) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const base = { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  const send = (o) => res.write(`data: ${JSON.stringify({ ...base, ...o })}\n\n`);
  send({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  const firstByteAt = new Date().toISOString();
  if (text) send({ choices: [{ index: 0, delta: { content: text }, finish_reason: null }] });
  calls.forEach((call, index) => {
    const fn = { name: call.name, arguments: JSON.stringify(call.args) };
    const delta = { tool_calls: [{ index, id: call.id, type: 'function', function: fn }] };
    send({ choices: [{ index: 0, delta, finish_reason: null }] });
  });
  send({ choices: [{ index: 0, delta: {}, finish_reason: calls.length > 0 ? 'tool_calls' : 'stop' }] });
  send({ choices: [], usage });
  res.end('data: [DONE]\n\n');
  return firstByteAt;
}

/** The usage object of a wire for prompt, cached and completion tokens. */
function usageOf(wire, prompt, cached, completion) {
  if (wire === 'messages') return anthropicUsage(prompt, cached, completion);
  if (wire === 'responses') {
    return {
      input_tokens: prompt,
      input_tokens_details: { cached_tokens: cached },
      output_tokens: completion,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: prompt + completion,
    };
  }
  if (wire === 'gemini') {
    return {
      promptTokenCount: prompt,
      candidatesTokenCount: completion,
      cachedContentTokenCount: cached,
      totalTokenCount: prompt + completion,
    };
  }
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cached },
  };
}

const idPrefix = { chat: 'chatcmpl', responses: 'resp', gemini: 'gemresp' };
const callPrefix = { chat: 'call', responses: 'call', gemini: 'gcall', messages: 'toolu' };

/**
 * Start the server. `truthFile` receives one JSON line per request. Use `load(scenario, run, steps)` before each
 * client run; requests past the script's end get a short final answer (and are marked `kind: "extra"`).
 */
export async function startScriptedModel({ truthFile, model }) {
  let scenario = 'none';
  let run = 'none';
  /** @type {(Step|StepFn)[]} */
  let steps = [];
  let step = 0;
  let served = 0;
  let lastPrompt = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const receivedAt = new Date().toISOString();
      const raw = Buffer.concat(chunks).toString('utf8');
      let body = {};
      try {
        body = JSON.parse(raw);
      } catch {}
      const wire = wireOf(req.url);
      if (wire === null) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"not found"}}');
        return;
      }
      if (wire === 'count-tokens') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: promptTokensOf(raw) }));
        return;
      }
      served += 1;
      const requestModel = body.model ?? decodeURIComponent(/models\/([^:/]+):/.exec(req.url ?? '')?.[1] ?? '');
      if (wire === 'gemini-side') {
        const answer = geminiSide(body, model);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer));
        const at = new Date().toISOString();
        const truth = { scenario, run, kind: 'side', id: `side-${served}`, requestModel, receivedAt, status: 200 };
        const line = { ...truth, usage: answer.usageMetadata, firstByteAt: at, endAt: at };
        appendFileSync(truthFile, `${JSON.stringify(line)}\n`);
        return;
      }
      const messages = wire === 'messages';
      const id = messages ? `msg_${scenario}_${served}` : `${idPrefix[wire]}-${scenario}-${served}`;
      // Claude Code's side requests (a title, a topic check) offer no tools: answered without taking a step.
      const side = messages && isSideRequest(body);
      const next = side ? undefined : steps[step];
      const kind = side ? 'side' : next === undefined ? 'extra' : 'script';
      const current = typeof next === 'function' ? next(body) : (next ?? { text: 'Done.' });
      const truth = { scenario, run, kind, step, id, requestModel, receivedAt, stream: body.stream ?? true };
      // What the client offered, once a run: a new or vanished tool is drift the recording shows.
      if (step === 0 && kind !== 'side') truth.toolsOffered = (body.tools ?? []).map((t) => t.function?.name ?? t.name);
      if (!side) step += 1;
      if (current.status !== undefined) {
        const firstByteAt = new Date().toISOString();
        if (messages) writeAnthropicError(res, current.status);
        else {
          res.writeHead(current.status, { 'content-type': 'application/json' });
          const error = { message: `scripted ${current.status}`, type: 'server_error', code: current.status };
          res.end(JSON.stringify({ error }));
        }
        appendFileSync(
          truthFile,
          `${JSON.stringify({ ...truth, status: current.status, usage: null, firstByteAt, endAt: firstByteAt })}\n`,
        );
        return;
      }
      const prompt = promptTokensOf(raw);
      // The part of this prompt the previous one already held is billed as a cache read, as providers do.
      const cached = side ? 0 : Math.min(lastPrompt, prompt) - (Math.min(lastPrompt, prompt) % 64);
      if (!side) lastPrompt = prompt;
      const calls = (current.calls ?? []).map((call, index) => ({
        ...call,
        id: `${callPrefix[wire]}_${scenario}_${served}_${index}`,
      }));
      const completion = 5 + Math.round((current.text ?? '').length / 4) + calls.length * 17;
      const usage = usageOf(wire, prompt, cached, completion);
      const servedModel = messages ? (body.model ?? model) : model;
      const served_ = { id, model: servedModel, text: current.text, calls, usage };
      const firstByteAt =
        wire === 'responses'
          ? responsesStream(res, served_)
          : wire === 'gemini'
            ? geminiStream(res, served_)
            : messages
              ? writeAnthropicStream(res, served_)
              : chatStream(res, served_);
      const endAt = new Date().toISOString();
      const items = calls.map((c) => ({ id: c.id, name: c.name, expectError: c.expectError === true }));
      appendFileSync(
        truthFile,
        `${JSON.stringify({ ...truth, status: 200, model: servedModel, usage, items, firstByteAt, endAt })}\n`,
      );
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    /** The server's root, for clients that add their own path (Gemini: `/v1beta/models/…`). */
    origin: `http://127.0.0.1:${address.port}`,
    load(nextScenario, nextRun, nextSteps) {
      scenario = nextScenario;
      run = nextRun;
      steps = nextSteps;
      step = 0;
      lastPrompt = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(resolve);
      }),
  };
}
