import { describe, expect, it } from 'vitest';
import { plantedSecrets } from './planted.js';
import { redactIdentifiers } from './redact-identifiers.js';

const key = plantedSecrets().find((p) => p.rule === 'anthropic-api-key')?.secret ?? '?';

describe('redactIdentifiers', () => {
  it('redacts titles, paths, cwd and branches at any depth, and leaves content alone', () => {
    const value = {
      title: `deploy ${key}`,
      projectPath: `/home/u/${key}`,
      facets: { projects: [`/srv/${key}`, '/srv/plain'] },
      files: [{ path: `/home/u/.claude/projects/-home-u-${key}/a.jsonl`, role: 'main' }],
      events: [{ kind: 'hidden', text: `prompt ${key}`, record: { cwd: `/home/u/${key}`, gitBranch: `fix/${key}` } }],
      n: 3,
    };
    const out = redactIdentifiers(value);
    expect(out).toEqual({
      title: 'deploy [REDACTED:anthropic-api-key]',
      projectPath: '/home/u/[REDACTED:anthropic-api-key]',
      facets: { projects: ['/srv/[REDACTED:anthropic-api-key]', '/srv/plain'] },
      files: [{ path: '/home/u/.claude/projects/-home-u-[REDACTED:anthropic-api-key]/a.jsonl', role: 'main' }],
      events: [
        {
          kind: 'hidden',
          text: `prompt ${key}`,
          record: { cwd: '/home/u/[REDACTED:anthropic-api-key]', gitBranch: 'fix/[REDACTED:anthropic-api-key]' },
        },
      ],
      n: 3,
    });
  });

  it('returns a value without secrets in its identifiers as it is (no copy)', () => {
    const value = { title: 'plain', events: [{ text: `content ${key}`, record: { cwd: '/home/u/p' } }] };
    expect(redactIdentifiers(value)).toBe(value);
  });
});
