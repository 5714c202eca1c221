// A scripted model API on 127.0.0.1 for recording real agent clients (issue 37). It speaks OpenAI Chat Completions
// with streaming (`POST …/chat/completions`, `stream: true`, the usage chunk of `stream_options.include_usage`) and
// serves, for each request, the next step of the script it was given: text, tool calls the model "decides", or an
// HTTP error. Every request is written to truth.jsonl with what was served: id, status, usage, and when the request
// arrived, the first byte left and the response ended. Not shipped to users: a recorder's tool.
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { anthropicUsage, isSideRequest, writeAnthropicError, writeAnthropicStream } from './anthropic-messages.mjs';

/**
 * @typedef {{ name: string, args: Record<string, unknown>, expectError?: boolean }} ScriptedCall
 * @typedef {{ text?: string, calls?: ScriptedCall[], status?: number }} Step
 * @typedef {(body: any) => Step} StepFn
 */

/** Tokens of a request as this server bills them: about four characters a token of its JSON body. */
function promptTokensOf(raw) {
  return Math.max(1, Math.round(raw.length / 4));
}

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
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (path.endsWith('/messages/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: promptTokensOf(raw) }));
        return;
      }
      const messages = path.endsWith('/messages');
      if (!messages && !path.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"not found"}}');
        return;
      }
      served += 1;
      const id = messages ? `msg_${scenario}_${served}` : `chatcmpl-${scenario}-${served}`;
      const side = messages && isSideRequest(body);
      const next = side ? undefined : steps[step];
      const kind = side ? 'side' : next === undefined ? 'extra' : 'script';
      const current = typeof next === 'function' ? next(body) : (next ?? { text: 'Done.' });
      const truth = { scenario, run, kind, step, id, requestModel: body.model, receivedAt, stream: body.stream };
      // What the client offered, once a run: a new or vanished tool is drift the recording shows.
      if (step === 0 && kind !== 'side') truth.toolsOffered = (body.tools ?? []).map((t) => t.function?.name ?? t.name);
      if (!side) step += 1;
      if (messages) {
        if (current.status !== undefined) writeAnthropicError(res, current.status);
        const at = new Date().toISOString();
        if (current.status !== undefined) {
          appendFileSync(
            truthFile,
            `${JSON.stringify({ ...truth, status: current.status, usage: null, firstByteAt: at, endAt: at })}\n`,
          );
          return;
        }
        const prompt = promptTokensOf(raw);
        const cached = side ? 0 : Math.min(lastPrompt, prompt) - (Math.min(lastPrompt, prompt) % 64);
        if (!side) lastPrompt = prompt;
        const calls = (current.calls ?? []).map((call, index) => ({
          ...call,
          id: `toolu_${scenario}_${served}_${index}`,
        }));
        const output = 5 + Math.round((current.text ?? '').length / 4) + calls.length * 17;
        const usage = anthropicUsage(prompt, cached, output);
        const firstByteAt = writeAnthropicStream(res, {
          id,
          model: body.model ?? model,
          text: current.text,
          calls,
          usage,
        });
        const items = calls.map((c) => ({ id: c.id, name: c.name, expectError: c.expectError === true }));
        const endAt = new Date().toISOString();
        const line = { ...truth, status: 200, model: body.model ?? model, usage, items, firstByteAt, endAt };
        appendFileSync(truthFile, `${JSON.stringify(line)}\n`);
        return;
      }
      if (current.status !== undefined) {
        res.writeHead(current.status, { 'content-type': 'application/json' });
        const firstByteAt = new Date().toISOString();
        res.end(JSON.stringify({ error: { message: `scripted ${current.status}`, type: 'server_error' } }));
        appendFileSync(
          truthFile,
          `${JSON.stringify({ ...truth, status: current.status, usage: null, firstByteAt, endAt: firstByteAt })}\n`,
        );
        return;
      }
      const prompt = promptTokensOf(raw);
      // The part of this prompt the previous one already held is billed as a cache read, as providers do.
      const cached = Math.min(lastPrompt, prompt) - (Math.min(lastPrompt, prompt) % 64);
      lastPrompt = prompt;
      const calls = (current.calls ?? []).map((call, index) => ({
        ...call,
        id: `call_${scenario}_${served}_${index}`,
      }));
      const completion = 5 + Math.round((current.text ?? '').length / 4) + calls.length * 17;
      const usage = {
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: prompt + completion,
        prompt_tokens_details: { cached_tokens: cached },
      };
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const base = { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
      const send = (o) => res.write(`data: ${JSON.stringify({ ...base, ...o })}\n\n`);
      send({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
      const firstByteAt = new Date().toISOString();
      if (current.text) send({ choices: [{ index: 0, delta: { content: current.text }, finish_reason: null }] });
      calls.forEach((call, index) => {
        const fn = { name: call.name, arguments: JSON.stringify(call.args) };
        send({
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index, id: call.id, type: 'function', function: fn }] },
              finish_reason: null,
            },
          ],
        });
      });
      send({ choices: [{ index: 0, delta: {}, finish_reason: calls.length > 0 ? 'tool_calls' : 'stop' }] });
      send({ choices: [], usage });
      res.end('data: [DONE]\n\n');
      const endAt = new Date().toISOString();
      const items = calls.map((c) => ({ id: c.id, name: c.name, expectError: c.expectError === true }));
      appendFileSync(
        truthFile,
        `${JSON.stringify({ ...truth, status: 200, model, usage, items, firstByteAt, endAt })}\n`,
      );
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    load(nextScenario, nextRun, nextSteps) {
      scenario = nextScenario;
      run = nextRun;
      steps = nextSteps;
      step = 0;
      lastPrompt = 0;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
