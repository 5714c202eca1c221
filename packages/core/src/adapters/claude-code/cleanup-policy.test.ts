import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCleanupPolicy } from './cleanup-policy.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'agentdash-claude-home-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('readCleanupPolicy', () => {
  it('is active with the 30-day default when settings.json is missing, not JSON or does not set it', () => {
    const expected = {
      settingsPath: join(home, 'settings.json'),
      cleanupPeriodDays: undefined,
      effectiveDays: 30,
      active: true,
    };
    expect(readCleanupPolicy(home)).toEqual(expected);
    writeFileSync(join(home, 'settings.json'), '{ not json');
    expect(readCleanupPolicy(home)).toEqual(expected);
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ model: 'opus', cleanupPeriodDays: 'never' }));
    expect(readCleanupPolicy(home)).toEqual(expected);
  });

  it('is active for a small period and inactive for a year or more', () => {
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ cleanupPeriodDays: 7 }));
    expect(readCleanupPolicy(home)).toMatchObject({ cleanupPeriodDays: 7, effectiveDays: 7, active: true });
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ cleanupPeriodDays: 36500 }));
    expect(readCleanupPolicy(home)).toMatchObject({ cleanupPeriodDays: 36500, active: false });
  });
});
