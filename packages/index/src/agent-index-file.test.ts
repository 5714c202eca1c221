import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markDerivedVersion } from '@agentdash/testing/other-build';
import { writeDemoHome } from '@agentdash/testing/synthetic';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { useTempIndex } from '../test/temp-index.js';
import { openIndex } from './index.js';
import { assertSqliteFile, INDEX_APPLICATION_ID } from './schema/db-file.js';
import { DERIVED_VERSION, SCHEMA_VERSION } from './schema/schema.js';

const t = useTempIndex();

describe('database file', () => {
  it('moves a corrupt database aside and rebuilds it, with a warning', async () => {
    t.index.close();
    const dbPath = join(t.dir, 'db', 'index.sqlite');
    // Our index (its header stamped with our application_id), its pages after the header overwritten.
    const bytes = readFileSync(dbPath);
    bytes.fill('damage: text where the pages should be. ', 100);
    writeFileSync(dbPath, bytes);
    const warnings: string[] = [];
    t.index = t.open('index.sqlite', (m) => warnings.push(m));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/unusable.*rebuilt/);
    expect(readdirSync(join(t.dir, 'db')).some((n) => n.includes('.corrupt-'))).toBe(true);
    // The new database is private as a first one is (before: it followed the umask, 0644; a review helper).
    expect((statSync(dbPath).mode & 0o777).toString(8)).toBe('600');
    const demo = writeDemoHome(join(t.dir, 'home'), { outputOnlyWord: 'a', subagentOnlyWord: 'b' });
    const report = await t.index.refresh([demo.home]);
    expect(report.sessions).toBe(1);
  });

  it('refuses an index a newer AgentDash wrote, and leaves it as it is (its archive stays reachable)', async () => {
    const demo = writeDemoHome(join(t.dir, 'home'), { outputOnlyWord: 'a', subagentOnlyWord: 'b' });
    await t.index.refresh([demo.home]);
    t.index.close();
    const dbPath = join(t.dir, 'db', 'index.sqlite');
    const raw = new Database(dbPath);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const before = readFileSync(dbPath);
    const warnings: string[] = [];
    expect(() => t.open('index.sqlite', (m) => warnings.push(m))).toThrow(
      expect.objectContaining({
        name: 'NewerIndexError',
        code: 'INDEX_UNAVAILABLE',
        message: `the index ${dbPath} was written by a newer AgentDash (schema ${SCHEMA_VERSION + 1}; this one knows up to ${SCHEMA_VERSION}). Upgrade AgentDash, or choose another --db path; the index is left as it is`,
      }),
    );
    expect(warnings).toEqual([]);
    expect(readdirSync(join(t.dir, 'db')).filter((n) => n.includes('.corrupt-'))).toEqual([]);
    expect(readFileSync(dbPath).equals(before)).toBe(true);
    // Back at this program's version (the newer one's work undone), the same file opens with its sessions.
    const back = new Database(dbPath);
    back.pragma(`user_version = ${SCHEMA_VERSION}`);
    back.close();
    t.index = t.open('index.sqlite');
    expect(t.index.listSessions()).toHaveLength(1);
  });

  it('refuses an index whose derived data a newer AgentDash built, unless a rebuild for this one is asked', async () => {
    const demo = writeDemoHome(join(t.dir, 'home'), { outputOnlyWord: 'a', subagentOnlyWord: 'b' });
    await t.index.refresh([demo.home]);
    t.index.close();
    const dbPath = join(t.dir, 'db', 'index.sqlite');
    markDerivedVersion(dbPath, DERIVED_VERSION + 1);
    const before = readFileSync(dbPath);
    // Rebuilding it would make the newer AgentDash rebuild it again on its next run: left as it is.
    expect(() => t.open('index.sqlite')).toThrow(
      expect.objectContaining({
        name: 'NewerDerivedIndexError',
        code: 'INDEX_UNAVAILABLE',
        message: `the index ${dbPath} was built by a newer AgentDash (derived data ${DERIVED_VERSION + 1}; this one's ${DERIVED_VERSION}): this one would rebuild it, and the newer one again after it. Upgrade AgentDash, choose another --db path, or rebuild it for this version with "agentdash index --rebuild" (its archive is kept)`,
      }),
    );
    expect(readFileSync(dbPath).equals(before)).toBe(true);
    // Asked for, it is rebuilt for this version and read again.
    t.index = openIndex({ dbPath, rebuild: true });
    expect(t.index.listSessions()).toHaveLength(0);
    await t.index.refresh([demo.home]);
    expect(t.index.listSessions()).toHaveLength(1);
    t.index.close();
    const after = new Database(dbPath, { readonly: true });
    expect(after.prepare('SELECT max(version) FROM derived_version').pluck().get()).toBe(DERIVED_VERSION);
    after.close();
    // An older derived version is rebuilt without asking, as before.
    markDerivedVersion(dbPath, DERIVED_VERSION - 1);
    t.index = t.open('index.sqlite');
    expect(t.index.listSessions()).toHaveLength(0);
    await t.index.refresh([demo.home]);
    expect(t.index.listSessions()).toHaveLength(1);
  });

  it.each([
    ['a transcript', '{"type":"user","message":{"role":"user","content":"hi"}}\n', 0o644],
    ['a read-only note', '# notes\n\nnothing to see\n', 0o444],
    ['a file shorter than the SQLite header', 'SQLite', 0o644],
  ])('never moves or writes %s given as the database, and says it is not an index', (_, text, mode) => {
    const victim = join(t.dir, 'victim.jsonl');
    writeFileSync(victim, text, { mode });
    const warnings: string[] = [];
    expect(() => openIndex({ dbPath: victim, onWarning: (m) => warnings.push(m) })).toThrow(
      expect.objectContaining({
        name: 'NotAnIndexError',
        code: 'INDEX_UNAVAILABLE',
        message: `${victim} is not an AgentDash index database (it does not start with the SQLite header); choose another --db path`,
      }),
    );
    expect(readFileSync(victim, 'utf8')).toBe(text);
    expect(statSync(victim).mode & 0o777).toBe(mode);
    expect(readdirSync(t.dir).sort()).toEqual(['db', 'victim.jsonl']);
    expect(warnings).toEqual([]);
  });

  it('lets a new index another process is writing through (zeros where its header will be), refuses a file of zeros', () => {
    // What a second process can read, without SQLite's locks, of a new index the first is checkpointing: the file
    // extended, page 1 not written yet. Before, that read as "not an AgentDash index" and the second process failed.
    const starting = join(t.dir, 'starting.sqlite');
    writeFileSync(starting, Buffer.alloc(8192));
    expect(() => assertSqliteFile(starting)).not.toThrow();
    // Opened for real, a file of zeros is no database: refused, never written or moved.
    expect(() => openIndex({ dbPath: starting })).toThrow(
      expect.objectContaining({ name: 'NotAnIndexError', code: 'INDEX_UNAVAILABLE' }),
    );
    expect(readFileSync(starting).equals(Buffer.alloc(8192))).toBe(true);
    expect(readdirSync(t.dir).sort()).toEqual(['db', 'starting.sqlite']);
  });

  it("never writes into another program's SQLite database", () => {
    const foreign = join(t.dir, 'places.sqlite');
    const raw = new Database(foreign);
    raw.exec("CREATE TABLE bookmarks (url TEXT); INSERT INTO bookmarks VALUES ('https://example.com')");
    raw.close();
    const before = readFileSync(foreign);
    expect(() => openIndex({ dbPath: foreign })).toThrow(
      `${foreign} is not an AgentDash index database (it is an SQLite database of another program); choose another --db path`,
    );
    expect(readFileSync(foreign).equals(before)).toBe(true);
    expect(readdirSync(t.dir).sort()).toEqual(['db', 'places.sqlite']);
  });

  it.each([
    ['with a table named files', 'CREATE TABLE files (path TEXT); CREATE TABLE sessions (id TEXT)', 0],
    ['with our tables and a user_version of 42', 'CREATE TABLE files (path TEXT); CREATE TABLE sessions (id TEXT)', 42],
    ['without tables but with a user_version of 7', '', 7],
  ])("never writes into nor moves another program's SQLite database %s", (_, sql, userVersion) => {
    const foreign = join(t.dir, 'other.sqlite');
    const raw = new Database(foreign);
    if (sql !== '') raw.exec(sql);
    raw.pragma(`user_version = ${userVersion}`);
    raw.close();
    const before = readFileSync(foreign);
    const warnings: string[] = [];
    expect(() => openIndex({ dbPath: foreign, onWarning: (m) => warnings.push(m) })).toThrow(
      expect.objectContaining({
        name: 'NotAnIndexError',
        message: `${foreign} is not an AgentDash index database (it is an SQLite database of another program); choose another --db path`,
      }),
    );
    // Not even the journal mode (WAL writes the header's bytes 18-19).
    expect(readFileSync(foreign).equals(before)).toBe(true);
    expect(readdirSync(t.dir).sort()).toEqual(['db', 'other.sqlite']);
    expect(warnings).toEqual([]);
  });

  it('stamps its application_id on a new index and on an index made before the stamp, which it still opens', () => {
    const dbPath = join(t.dir, 'db', 'index.sqlite');
    t.index.close();
    const stamped = new Database(dbPath);
    expect(stamped.pragma('application_id', { simple: true })).toBe(INDEX_APPLICATION_ID);
    // An index of an earlier release: no stamp.
    stamped.pragma('application_id = 0');
    stamped.close();
    t.index = t.open();
    t.index.close();
    const again = new Database(dbPath, { readonly: true });
    expect([again.pragma('application_id', { simple: true }), again.pragma('user_version', { simple: true })]).toEqual([
      INDEX_APPLICATION_ID,
      SCHEMA_VERSION,
    ]);
    again.close();
    t.index = t.open();
  });

  it('never moves a damaged SQLite database that is not recognisably ours', () => {
    const damaged = join(t.dir, 'damaged.sqlite');
    const raw = new Database(damaged);
    raw.exec("CREATE TABLE bookmarks (url TEXT); INSERT INTO bookmarks VALUES ('https://example.com')");
    raw.close();
    const bytes = readFileSync(damaged);
    bytes.fill('damage ', 100);
    writeFileSync(damaged, bytes);
    expect(() => openIndex({ dbPath: damaged })).toThrow(expect.objectContaining({ name: 'NotAnIndexError' }));
    expect(readFileSync(damaged).equals(bytes)).toBe(true);
    expect(readdirSync(t.dir).sort()).toEqual(['damaged.sqlite', 'db']);
  });

  it('makes an index of an empty file, with 4 KiB pages', () => {
    const empty = join(t.dir, 'empty.sqlite');
    writeFileSync(empty, '');
    const fresh = openIndex({ dbPath: empty });
    fresh.close();
    const check = new Database(empty, { readonly: true });
    expect([check.pragma('user_version', { simple: true }), check.pragma('page_size', { simple: true })]).toEqual([
      SCHEMA_VERSION,
      4096,
    ]);
    check.close();
  });

  it('fails at once, naming the path, where the folder cannot be made (/proc, a file as a folder)', () => {
    writeFileSync(join(t.dir, 'plain'), 'x');
    const started = Date.now();
    expect(() => openIndex({ dbPath: '/proc/agentdash-nope/index.sqlite' })).toThrow(
      /^cannot use \/proc\/agentdash-nope\/index.sqlite as the index database: ENOENT/,
    );
    expect(() => openIndex({ dbPath: join(t.dir, 'plain', 'sub', 'index.sqlite') })).toThrow(
      expect.objectContaining({ code: 'INDEX_UNAVAILABLE', message: expect.stringMatching(/ENOTDIR/) }),
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('migrates an older schema version in place', async () => {
    t.index.close();
    const dbPath = join(t.dir, 'db', 'old.sqlite');
    const raw = new Database(dbPath);
    // An index as schema version 1 made it (before the stamp): its first tables only.
    raw.exec(`CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, project_dir TEXT NOT NULL,
        role TEXT NOT NULL, session_id TEXT NOT NULL);
      CREATE TABLE sessions (id TEXT PRIMARY KEY, project_dir TEXT NOT NULL);
      PRAGMA user_version = 1;`);
    raw.prepare("INSERT INTO files (path, project_dir, role, session_id) VALUES ('/x.jsonl', '/', 'main', 'x')").run();
    raw.close();
    const warnings: string[] = [];
    t.index = t.open('old.sqlite', (m) => warnings.push(m));
    t.index.close();
    expect(warnings).toEqual([]);
    const check = new Database(dbPath);
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    // The derived tables are made again, empty, so that the next refresh re-reads with the new parser.
    expect(check.prepare('SELECT COUNT(*) FROM files').pluck().get()).toBe(0);
    expect(check.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'docs_call'").pluck().get()).toBe(1);
    check.close();
    t.index = t.open();
  });

  it('keeps its data between opens (a second process parses nothing)', async () => {
    const demo = writeDemoHome(join(t.dir, 'home'), { outputOnlyWord: 'a', subagentOnlyWord: 'b' });
    await t.index.refresh([demo.home]);
    t.index.close();
    t.index = t.open();
    expect(await t.index.refresh([demo.home])).toMatchObject({ filesParsed: 0, bytesParsed: 0, sessions: 1 });
    expect(existsSync(join(t.dir, 'home', 'agentdash'))).toBe(false);
  });
});
