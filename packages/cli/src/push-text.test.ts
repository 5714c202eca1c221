/** What `push` says of one push: each count with its noun ("1 sessions" and "in 1 requests" before). */
import type { PushReport } from '@agentdash/team';
import { expect, it } from 'vitest';
import { pushText } from './commands/push.js';

const report = (sessions: number, requests: number): PushReport => ({
  person: 'ann',
  device: 'laptop',
  sessions,
  forgotten: 0,
  superseded: 0,
  unmatchedRules: [],
  skipped: [],
  lowered: [],
  replacedHigher: [],
  tiers: { summary: sessions, metadata: 0, full: 0 },
  sent: sessions,
  stored: sessions,
  unchanged: 0,
  chunks: 0,
  chunksUploaded: 0,
  bytesSent: 2048,
  requests,
  retried: 0,
});

it('says one session and one request in the singular, more in the plural', () => {
  expect(pushText('http://team.invalid', report(1, 1))).toBe(
    'pushed to http://team.invalid as ann/laptop: 1 session (1 summary); 1 stored, 0 unchanged; 2.0 KiB sent in 1 request',
  );
  expect(pushText('http://team.invalid', report(1200, 3))).toBe(
    'pushed to http://team.invalid as ann/laptop: 1,200 sessions (1,200 summary); 1,200 stored, 0 unchanged; 2.0 KiB sent in 3 requests',
  );
});
