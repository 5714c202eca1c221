/**
 * The migrated template database the team fixtures copy is named after the migrations' content: a PostgreSQL that
 * outlives a run (watch mode) never gives a later run a template built by older migrations.
 */
import { describe, expect, it } from 'vitest';
import { migrations } from '../src/pg/migrations.js';
import { migratedName } from './pg-harness.js';

describe('the migrated template database', () => {
  it('is named by a short hash of the migrations, the same while they are', () => {
    expect(migratedName()).toMatch(/^agentdash_migrated_[0-9a-f]{12}$/);
    expect(migratedName([...migrations])).toBe(migratedName());
  });

  it('gets another name when a migration is added or its SQL changes', () => {
    const last = migrations.at(-1);
    if (last === undefined) throw new Error('no migrations');
    const edited = [...migrations.slice(0, -1), { ...last, sql: `${last.sql}\n-- edited` }];
    const added = [...migrations, { version: last.version + 1, name: 'next', sql: 'select 1' }];
    const names = new Set([migratedName(), migratedName(edited), migratedName(added)]);
    expect(names.size).toBe(3);
  });
});
