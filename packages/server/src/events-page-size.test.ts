/**
 * Event pages are cut by size as well as by count (issue 36, item 7): the first page of the 3 MB session of
 * `../shared/wild` was 1.98 MB of JSON. Asked on from where each page stops, the pages hold every event once, in
 * order, as one uncut read does.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openIndex } from '@agentdash/index';
import { describe, expect, it } from 'vitest';
import type { EventsPage } from './api-types.js';
import { createApp } from './app.js';
import { createLocalSessionHost } from './session-host.js';
import { PAGE_CHARS } from './session-view.js';

const here = dirname(fileURLToPath(import.meta.url));
const shared = resolve(here, '../../../../shared');
const home = join(shared, 'wild', 'claude-home');
/** The largest transcript of `../shared/wild` (3.2 MB, 1,191 lines). */
const BIG = '4d5611e5-241a-462a-8d15-5122611a9569';
const present = existsSync(join(home, 'projects', 'spotter-1', `${BIG}.jsonl`));

describe.skipIf(!present)(
  present ? 'event pages by size' : 'event pages by size (skipped: ../shared/wild not present)',
  () => {
    it('cuts the first page of a 3 MB session by size, and the pages asked on hold every event once', async () => {
      const tmp = await mkdtemp(join(tmpdir(), 'agentdash-page-size-'));
      const index = openIndex({ dbPath: join(tmp, 'index.sqlite') });
      try {
        await index.refresh([join(home, 'projects', 'spotter-1')]);
        const sessions = createLocalSessionHost(index);
        const app = createApp({ index, paths: [], host: '127.0.0.1', port: 4317, assetsDir: tmp, sessions });
        const get = async (offset: number, limit: number) => {
          const res = await app.request(`/api/sessions/${BIG}/events?offset=${offset}&limit=${limit}`, {
            headers: { host: '127.0.0.1:4317' },
          });
          expect(res.status).toBe(200);
          const text = await res.text();
          return { bytes: Buffer.byteLength(text), page: JSON.parse(text) as EventsPage };
        };
        const first = await get(0, 100);
        expect(first.page.total).toBeGreaterThan(100);
        expect(first.page.events.length).toBeGreaterThan(0);
        expect(first.page.events.length).toBeLessThan(100);
        // at most the budget plus the page's own fields (and multi-byte characters), never megabytes
        expect(first.bytes).toBeLessThan(PAGE_CHARS * 1.5);

        // every event, once and in order, asking on from each page's end as the dashboard does
        const indices: number[] = [];
        let offset = 0;
        while (offset < first.page.total) {
          const { page } = await get(offset, 100);
          expect(page.offset).toBe(offset);
          expect(page.events.length).toBeGreaterThan(0);
          indices.push(...page.events.map((e) => e.index));
          offset += page.events.length;
        }
        expect(indices).toEqual(Array.from({ length: first.page.total }, (_, i) => i));
        await sessions.close();
      } finally {
        index.close();
        await rm(tmp, { recursive: true, force: true });
      }
    });
  },
);
