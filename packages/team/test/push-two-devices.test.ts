/**
 * One person's two devices pushing the same session (a home synced between a desk and a laptop: the same path, so
 * the same uid), real PostgreSQL and the real push client. The desk, where the session went on, pushes it first; the
 * laptop's synced copy lags behind it. The laptop's push must not take the team's copy back to where the session
 * was: the copy that went further stays, from whichever device. Once the laptop's copy caught up, its push is taken.
 */
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentIndex, openIndex } from '@agentdash/index';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addDevice } from '../src/pg/people.js';
import { pgSuite } from './pg-harness.js';
import { SAMPLES } from './samples-copy.js';
import { startTeam, type TeamFixture } from './team-harness.js';

const PROJECT = 'projects/-home-user-proj-shell';

/** Two more answers of the session's last one, a minute and two later: the session going on. */
function goOn(file: string): void {
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const last = JSON.parse(lines.findLast((l) => l.includes('"type":"assistant"')) as string);
  const later = (minutes: number) => new Date(Date.parse(last.timestamp) + minutes * 60_000).toISOString();
  const more = [1, 2].map((m) =>
    JSON.stringify({
      ...last,
      uuid: `00000000-0000-4000-8000-00000000000${m}`,
      parentUuid: m === 1 ? last.uuid : '00000000-0000-4000-8000-000000000001',
      timestamp: later(m),
      message: { ...last.message, id: `msg_two_devices_${m}`, content: [{ type: 'text', text: `more ${m}` }] },
    }),
  );
  appendFileSync(file, `${more.join('\n')}\n`);
}

pgSuite("one person's two devices pushing one synced session (real PostgreSQL, the real push client)", () => {
  let team: TeamFixture;
  let dir: string;
  let home: string;
  let file: string;
  let laptop: AgentIndex;
  let desk: AgentIndex;
  let deskToken: string;

  beforeAll(async () => {
    team = await startTeam();
    ({ token: deskToken } = await addDevice(team.db.sql, 'ann', 'desk'));
    dir = mkdtempSync(join(tmpdir(), 'agentdash-two-devices-'));
    home = join(dir, '.claude');
    cpSync(SAMPLES, home, { recursive: true });
    file = join(home, PROJECT, readdirSync(join(home, PROJECT)).find((n) => n.endsWith('.jsonl')) as string);
    laptop = openIndex({ dbPath: join(dir, 'laptop.sqlite') });
    await laptop.refresh([home]);
    goOn(file);
    desk = openIndex({ dbPath: join(dir, 'desk.sqlite') });
    await desk.refresh([home]);
  });
  afterAll(async () => {
    laptop?.close();
    desk?.close();
    await team?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const held = async () => {
    const rows = await team.db.sql<{ ended_ms: string; device: string }[]>`
      select s.ended_ms::text, d.name as device from sessions s join devices d on d.id = s.device_id
      where s.session_id = ${file.slice(file.lastIndexOf('/') + 1, -'.jsonl'.length)}`;
    return rows.map((r) => [r.device, Number(r.ended_ms)]);
  };

  it("keeps the copy that went further when the other device's copy lags behind it", async () => {
    const deskEnd = Date.parse(desk.listSessions().find((s) => file.includes(s.id))?.endedAt ?? '');
    const laptopEnd = Date.parse(laptop.listSessions().find((s) => file.includes(s.id))?.endedAt ?? '');
    expect(deskEnd - laptopEnd).toBe(120_000);
    const first = await team.pushIndex(desk, { token: deskToken, tier: 'metadata', hostname: 'desk' });
    expect(first.stored).toBe(first.sessions);
    expect(await held()).toEqual([['desk', deskEnd]]);
    // the laptop's push: every other session unchanged, this one older than the team's
    const second = await team.pushIndex(laptop, { tier: 'metadata' });
    expect(second.stored).toBe(0);
    expect(await held()).toEqual([['desk', deskEnd]]);
  });

  it('sends a lagging copy again only once it changed: not at every push while it lags', async () => {
    // the laptop's copy as it was: the server had it then, and told it to wait
    expect((await team.pushIndex(laptop, { tier: 'metadata' })).sent).toBe(0);
    // a new copy of it (another tier, its transcripts with it) is sent once, then waits too, its chunks not sent again
    const full = await team.pushIndex(laptop, { tier: 'full' });
    expect([full.sent, full.stored]).toEqual([full.sessions, full.sessions - 1]);
    const again = await team.pushIndex(laptop, { tier: 'full' });
    expect([again.sent, again.chunksUploaded, again.unchanged]).toEqual([0, 0, again.sessions]);
    expect(await held()).toEqual([
      ['desk', Date.parse(desk.listSessions().find((s) => file.includes(s.id))?.endedAt ?? '')],
    ]);
    // back at the metadata tier: every session sent (the others lowered), this one behind still
    const back = await team.pushIndex(laptop, { tier: 'metadata' });
    expect([back.sent, back.stored]).toEqual([back.sessions, back.sessions - 1]);
  });

  it("lowers the tier from the lagging device too: a lower tier is the person's choice, not a copy behind", async () => {
    const id = file.slice(file.lastIndexOf('/') + 1, -'.jsonl'.length);
    const report = await team.pushIndex(laptop, { tier: 'summary' });
    // every session lowered, this one too: before, it was kept at the metadata tier, its title on the server
    expect(report.stored).toBe(report.sessions);
    const rows = await team.db.sql<{ tier: string; title: string | null }[]>`
      select tier, title from sessions where session_id = ${id}`;
    expect(rows.map((r) => [r.tier, r.title])).toEqual([['summary', null]]);
  });

  it("takes the laptop's copy once it caught up: as far as the desk's, it is no less", async () => {
    await laptop.refresh([home]);
    const end = Date.parse(laptop.listSessions().find((s) => file.includes(s.id))?.endedAt ?? '');
    const report = await team.pushIndex(laptop, { tier: 'metadata' });
    // every session back at the metadata tier from the summary the last push lowered them to: never kept out
    expect(report.stored).toBe(report.sessions);
    expect(await held()).toEqual([['laptop', end]]);
  });
});
