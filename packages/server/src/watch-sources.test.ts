import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, it } from 'vitest';
import { type SourceWatch, watchSources } from './watch-sources.js';

const dir = mkdtempSync(join(tmpdir(), 'agentdash-rewatch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let watches: SourceWatch[] = [];
afterEach(() => {
  for (const w of watches) w.close();
  watches = [];
});

/** Resolves once `seen` holds a path `match` accepts; fails after `ms`, naming what was seen. */
async function until(seen: readonly string[], match: (path: string) => boolean, ms = 5_000): Promise<void> {
  const started = Date.now();
  while (!seen.some(match)) {
    if (Date.now() - started > ms) throw new Error(`not seen; saw ${JSON.stringify(seen)}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

const SESSION = '0a7c0000-0000-4000-8000-000000000001.jsonl';

/** A Claude home with a project folder, watched (its folders looked at every 50 ms): what it hears goes in `seen`. */
function watchedHome(name: string): { home: string; projects: string; seen: string[] } {
  const home = join(dir, name, '.claude');
  const projects = join(home, 'projects');
  mkdirSync(join(projects, '-p'), { recursive: true });
  const seen: string[] = [];
  watches = watchSources([home], (path) => seen.push(path), 50);
  return { home, projects, seen };
}

describe('watching a Claude home', () => {
  it('hears its projects folder again once it is moved away and made again', async () => {
    const { home, projects, seen } = watchedHome('moved');
    writeFileSync(join(projects, '-p', SESSION), '{}\n');
    await until(seen, (p) => p.endsWith(SESSION));
    // `mv projects projects-moved && mkdir projects`: the watch followed the folder moved away
    renameSync(projects, join(home, 'projects-moved'));
    mkdirSync(join(projects, '-q'), { recursive: true });
    await until(seen, (p) => p === projects);
    seen.length = 0;
    writeFileSync(join(projects, '-q', SESSION), '{}\n');
    await until(seen, (p) => p === join(projects, '-q', SESSION));
  });

  it('hears a folder removed whole and made again, and says each time', async () => {
    const { projects, seen } = watchedHome('removed');
    rmSync(projects, { recursive: true });
    await until(seen, (p) => p === projects);
    seen.length = 0;
    mkdirSync(join(projects, '-p'), { recursive: true });
    await until(seen, (p) => p === projects);
    writeFileSync(join(projects, '-p', SESSION), '{}\n');
    await until(seen, (p) => p === join(projects, '-p', SESSION));
  });

  it('hears a home that was gone when the watch began, once it is made', async () => {
    const home = join(dir, 'later', '.claude');
    const seen: string[] = [];
    watches = watchSources([home], (path) => seen.push(path), 50);
    mkdirSync(join(home, 'projects', '-p'), { recursive: true });
    await until(seen, (p) => p === home);
    writeFileSync(join(home, 'projects', '-p', SESSION), '{}\n');
    await until(seen, (p) => p.endsWith(SESSION));
  });
});
