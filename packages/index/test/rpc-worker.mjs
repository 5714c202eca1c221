// The worker of worker-rpc.test.ts: speaks its TestProtocol through the built helper (workers run built code).
import { parentPort } from 'node:worker_threads';
import { AgentDashError } from '@agentdash/core';
import { serveRpc } from '../dist/worker-rpc.js';
import { announceLoaded } from '../dist/worker-script.js';

announceLoaded();

let told = '';
const rpc = serveRpc(
  parentPort,
  {
    echo: ({ text }, { stream }) => {
      for (const part of text.split(' ')) stream({ part });
      return told === '' ? text : `${told}: ${text}`;
    },
    bytes: ({ data }) => data.byteLength,
    fail: ({ code }) => {
      throw code === undefined ? new Error('plain failure') : new AgentDashError(code, `failed with ${code}`);
    },
    crash: ({ how }) => {
      if (how === 'exit') process.exit(7);
      setTimeout(() => {
        throw new Error('uncaught in the worker');
      });
      return new Promise(() => {});
    },
    wait: (_request, { signal }) =>
      new Promise((resolve) => {
        rpc.notify('waiting', undefined);
        signal.addEventListener('abort', () => {
          rpc.notify('aborted', undefined);
          resolve(0);
        });
      }),
  },
  {
    notices: { tell: (text) => (told = text) },
    errorData: (error) => ({ message: error.message, code: error.code, data: { seen: 'by the worker' } }),
  },
);
