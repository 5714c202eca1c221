import type Database from 'better-sqlite3';
import { adapterForFile, agentOfRow } from '../agents.js';
import { type Archive, HELD } from '../archive/archive.js';
import { noteLoss, VERSION_KEPT } from '../archive/versions.js';
import { discoveredOfRow, type FileRow } from '../file-row.js';
import { prepared } from '../schema/statements.js';
import { type AgentFiles, type FiledAgents, filesWithStaleCopies } from './copy-rows.js';
import type { FileImporter } from './import-file.js';
import type { FileStep } from './refresh-plan.js';
import type { WriteBatches } from './write-batch.js';

export class CopyReads {
  constructor(
    private readonly db: Database.Database,
    private readonly importer: FileImporter,
    private readonly batches: WriteBatches,
    private readonly archive: Archive,
    readonly changes: AgentFiles,
  ) {}

  /**
   * Read again the files whose copies changed meaning (`changes`, stored: those a stopped refresh left too), each
   * session's pending read dropped once its files are read.
   * `steps`: the files of this refresh, as discovered (the others as stored).
   */
  async run(steps: readonly FileStep[], archiving: boolean, filed: FiledAgents): Promise<void> {
    const pending = this.changes.pending();
    if (pending.length === 0) return;
    const byPath = new Map(steps.map((step) => [step.file.path, step]));
    for (const { sessionKey, lost } of pending) {
      for (const id of this.filesToRead(sessionKey, lost)) await this.readAgain(id, byPath, archiving, filed);
      // In the batch of its last read: stopped before it, the session is read again by the next refresh.
      this.batches.begin();
      this.changes.done(sessionKey);
    }
  }

  /**
   * Where an agent's file came, the files holding copies taken as its thread; where one left (or a file moved in or
   * out), every file of the session its agent may copy into.
   */
  private filesToRead(sessionKey: string, lost: boolean): number[] {
    if (!lost) return filesWithStaleCopies(this.db, sessionKey);
    const rows = prepared(this.db, 'SELECT * FROM files WHERE session_id = ?').all(sessionKey) as FileRow[];
    return rows
      .filter((row) => adapterForFile({ agent: agentOfRow(row.agent) }).embeddedRecordOf !== undefined)
      .map((row) => row.id);
  }

  private async readAgain(
    id: number,
    byPath: ReadonlyMap<string, FileStep>,
    archiving: boolean,
    filed: FiledAgents,
  ): Promise<void> {
    const row = prepared(this.db, 'SELECT * FROM files WHERE id = ?').get(id) as FileRow | undefined;
    if (row === undefined) return;
    if (row.archived === HELD) {
      await this.readHeldAgain(row, filed);
      return;
    }
    const step = byPath.get(row.path);
    const file = step?.file ?? discoveredOfRow(row);
    const source = step?.source ?? {
      fromArchive: row.archived === 1,
      archiving,
      archivedBytes: this.archive.end(row.path),
    };
    const batch = this.batches.begin();
    const outcome = await this.importer.importFile(file, false, batch, source, undefined, filed.of(file), true);
    await this.batches.fileDone(batch, outcome.bytes, false);
  }

  /**
   * A file held at its last complete version (versions.ts): that version, which the archive holds, is read again,
   * and the file stays held (its row's disk facts and its note of the loss as they were).
   */
  private async readHeldAgain(row: FileRow, filed: FiledAgents): Promise<void> {
    const file = discoveredOfRow(row);
    const note = prepared(this.db, 'SELECT message FROM issues WHERE file_id = ? AND code = ?', 'pluck').get(
      row.id,
      VERSION_KEPT,
    ) as string | undefined;
    const source = { fromArchive: true, archiving: false, archivedBytes: this.archive.end(row.path) };
    const batch = this.batches.begin();
    const outcome = await this.importer.importFile(file, false, batch, source, undefined, filed.of(file), true);
    prepared(this.db, 'UPDATE files SET archived = ? WHERE id = ?').run(HELD, row.id);
    if (note !== undefined) noteLoss(this.db, row.id, note);
    await this.batches.fileDone(batch, outcome.bytes, false);
  }
}
