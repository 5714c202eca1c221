// An OTLP/HTTP capture server on 127.0.0.1 for recording an agent client's own telemetry (issue 34): every request
// to /v1/logs, /v1/traces or /v1/metrics is appended to `otlp.jsonl` as `{t, path, contentType, contentEncoding,
// body}`, body the exact request bytes in base64 (the `../shared/corpus-otel` layout, which the suites replay), and
// answered with an empty success in the request's own encoding. Not shipped to users: a recorder's tool.
import { appendFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';

/** Start capturing into `file` (emptied first). Returns `{ url, requests(), close }`. */
export async function startOtlpCapture({ file }) {
  writeFileSync(file, '');
  let count = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0];
      const contentType = req.headers['content-type'] ?? '';
      if (req.method !== 'POST' || !/^\/v1\/(logs|traces|metrics)$/.test(path)) {
        res.writeHead(404).end();
        return;
      }
      count += 1;
      const line = {
        t: new Date().toISOString(),
        path,
        contentType,
        contentEncoding: req.headers['content-encoding'] ?? '',
        body: Buffer.concat(chunks).toString('base64'),
      };
      appendFileSync(file, `${JSON.stringify(line)}\n`);
      if (/json/.test(contentType)) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      else res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests: () => count,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(resolve);
      }),
  };
}
