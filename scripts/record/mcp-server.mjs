// A stdio MCP server for recordings (newline-delimited JSON-RPC 2.0): `echo` answers its text, `fail` answers with
// isError, so a client's MCP calls and MCP tool errors can be scripted. Not shipped to users.
import { createInterface } from 'node:readline';

const tools = [
  {
    name: 'echo',
    description: 'Echo the text back',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  {
    name: 'fail',
    description: 'Always fails',
    inputSchema: { type: 'object', properties: { why: { type: 'string' } } },
  },
];

function reply(id, result) {
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);
}

createInterface({ input: process.stdin }).on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (msg.id === undefined) return;
  if (msg.method === 'initialize') {
    reply(msg.id, {
      protocolVersion: msg.params?.protocolVersion ?? '2025-06-18',
      capabilities: { tools: {} },
      serverInfo: { name: 'rec', version: '1.0.0' },
    });
  } else if (msg.method === 'tools/list') reply(msg.id, { tools });
  else if (msg.method === 'tools/call') {
    const { name, arguments: args } = msg.params ?? {};
    if (name === 'echo') reply(msg.id, { content: [{ type: 'text', text: `echo: ${args?.text ?? ''}` }] });
    else
      reply(msg.id, { content: [{ type: 'text', text: `fail: ${args?.why ?? 'scripted failure'}` }], isError: true });
  } else reply(msg.id, {});
});
