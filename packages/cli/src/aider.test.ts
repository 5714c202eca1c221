import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/harness.js';
import type { SessionsJson } from './output/json-types.js';

const here = dirname(fileURLToPath(import.meta.url));
/** Seven repositories' real histories (core's fixtures): a folder of repositories. */
const repositories = resolve(here, '../../core/test/fixtures/aider');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentdash-aider-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: readonly string[]) =>
  runCli(args, {
    home: join(dir, 'home'),
    db: join(dir, 'index.sqlite'),
    env: { AGENTDASH_AIDER_PROJECTS: repositories },
  });

describe('Aider: the folders of $AGENTDASH_AIDER_PROJECTS, --agent aider', () => {
  it('reads each repository history as a session of agent aider, its project the repository', async () => {
    const r = await cli(['sessions', '--json', '--agent', 'aider']);
    expect(r.code, r.stderr).toBe(0);
    const { sessions } = JSON.parse(r.stdout) as SessionsJson;
    expect(sessions.map((s) => [s.agent, s.projectPath?.split('/').pop()]).sort()).toEqual(
      [
        'AFI-Protocol-afi-core',
        'Aeell-ai-text-detector',
        'Akash-Modi104-trading-bot',
        'AlexShchuka-mozgoslav',
        'Aquaticat-Monochromatic',
        'Asphyksia-OpenCoder',
        'BeehiveInnovations-zen-mcp-server',
      ].map((name) => ['aider', name]),
    );
  });
});
