import type { ContentBlock } from '../../model/content.js';
import {
  createIsoTimestamp,
  createRecordUuid,
  createSessionId,
  createToolUseId,
  type IsoTimestamp,
  type RecordUuid,
} from '../../model/ids.js';
import type { SourceLocation } from '../../model/issue.js';
import type { RecordEvent } from '../../model/raw.js';
import type { ChainEnvelope, TranscriptRecord, Usage } from '../../model/record.js';
import { type AiderBlock, aiderBlocks, lineText } from './blocks.js';

/** The model named for answers of a run whose banner names none (never priced). */
export const UNKNOWN_AIDER_MODEL = 'aider-unknown-model';

const RUN_TIME = /^# aider chat started at (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})/;
const MODEL = /^(?:Main model|Model): (\S+)/;
/** `Tokens: … received.` then, when the model's prices are known, ` Cost: $… message, $… session.` */
const TOKENS = /^Tokens: (.*?)\.(?: Cost: (.*))?$/;
const APPLIED = /^Applied edit to (.+)$/;
const NOT_CONFORMING = /^The LLM did not conform to the edit format/;
const COMMIT = /^Commit ([0-9a-f]{7,40}) (.*)$/;
const SKIPPED = /^Skipping edits to (.+)$/;
const NO_MATCH = /^# \d+ SEARCH\/REPLACE blocks? failed to match/;

/** A rounded figure as Aider prints it (`2.1k`, `900`, `1.2M`); undefined when it is none. */
export function roundedCount(text: string): number | undefined {
  const m = /^([\d.]+)([kKmM]?)$/.exec(text.trim());
  if (m === null) return undefined;
  const value = Number(m[1]);
  if (!Number.isFinite(value)) return undefined;
  const scale = m[2] === 'k' || m[2] === 'K' ? 1_000 : m[2] === 'm' || m[2] === 'M' ? 1_000_000 : 1;
  return Math.round(value * scale);
}

/**
 * `Tokens: 2.1k sent, 1.5k cache write, 900 cache hit, 120 received.` → usage, as Aider reports it (rounded: the
 * figures are approximate). `sent` is the prompt Aider counted (cache writes and hits reported beside it).
 */
export function usageOfTokensLine(report: string): Usage | undefined {
  const counts: Record<string, number> = {};
  for (const part of report.split(',')) {
    const m = /^\s*([\d.]+[kKmM]?)\s+(.+?)\s*$/.exec(part);
    const n = m === null ? undefined : roundedCount(m[1] ?? '');
    if (m !== null && n !== undefined) counts[m[2] ?? ''] = n;
  }
  if (counts.sent === undefined && counts.received === undefined) return undefined;
  return {
    inputTokens: counts.sent ?? 0,
    outputTokens: counts.received ?? 0,
    cacheCreationInputTokens: counts['cache write'] ?? 0,
    cacheCreation1hInputTokens: 0,
    cacheReadInputTokens: counts['cache hit'] ?? 0,
  };
}

/** What Aider printed of an edit: applied, refused by the person, not in the edit format, its SEARCH not found. */
export type EditOutcome = 'applied' | 'skipped' | 'not-conforming' | 'no-match';

/** One SEARCH/REPLACE edit an answer proposed, waiting for its outcome in Aider's output. */
interface PendingEdit {
  readonly id: string;
  readonly filePath: string | undefined;
  readonly search: string;
}

/**
 * Decodes one history file into records. Runs are system records (`aider_run`) stamped with the local time the
 * banner gives (the only time the file holds: nothing inside a run is stamped, and no time is made up); the
 * person's lines are a prompt; an answer is an assistant record whose SEARCH/REPLACE blocks are `edit` calls; Aider's
 * quoted output is a system record, and its lines that say what happened become records of their own: `Applied edit
 * to F` (the edit's result), `The LLM did not conform to the edit format` (every edit of the answer still waiting
 * fails), `Commit <sha> …`, `Tokens: …` (the answer's usage, approximate).
 */
export class AiderDecoder {
  private model = UNKNOWN_AIDER_MODEL;
  private runAt: IsoTimestamp | undefined;
  private previous: RecordUuid | null = null;
  private answerId: string | undefined;
  private pending: PendingEdit[] = [];
  /** `The LLM did not conform…` / `# N … failed to match` seen: which edits failed is told below it. */
  private failure: { loc: SourceLocation; text: string; outcome: EditOutcome } | undefined;

  constructor(
    private readonly file: string,
    private readonly sessionId: string,
    private readonly cwd: string,
  ) {}

  decode(text: string, emit: (event: RecordEvent) => void): void {
    for (const block of aiderBlocks(text)) {
      const records = this.block(block);
      records.forEach((record, index) => {
        if ('uuid' in record) this.previous = record.uuid;
        emit({ kind: 'record', record, byteLength: index === 0 ? blockBytes(block) : 0 });
      });
    }
  }

  private block(block: AiderBlock): TranscriptRecord[] {
    const loc = this.loc(block.startLine, block.offset);
    const first = block.lines[0] ?? '';
    const explanation = block.kind === 'answer' && /^#+ SearchReplaceNoExactMatch/.test(first);
    const flushed = block.kind === 'output' || explanation ? [] : this.flushFailure();
    return [...flushed, ...this.blockRecords(block, loc, first, explanation)];
  }

  /** Edits still waiting when a failure was reported and nothing below it told them apart: failed as reported. */
  private flushFailure(): TranscriptRecord[] {
    const failure = this.failure;
    this.failure = undefined;
    if (failure === undefined) return [];
    return this.pending.splice(0).map((edit) => this.result(edit, failure.loc, failure.text, failure.outcome));
  }

  /**
   * Aider's unquoted explanation of a failed edit: the SEARCH parts that failed (each an edit waiting), and
   * whether the others were applied (`# The other N SEARCH/REPLACE blocks were applied successfully`).
   */
  private explained(block: AiderBlock, loc: SourceLocation): TranscriptRecord[] {
    const failed = new Set<string>();
    const lines = block.lines;
    for (let i = 0; i < lines.length; i += 1) {
      if (!/^<{5,9} SEARCH\s*$/.test(lines[i] ?? '')) continue;
      const divider = lines.findIndex((l, j) => j > i && /^={5,9}\s*$/.test(l));
      if (divider !== -1) failed.add(lines.slice(i + 1, divider).join('\n'));
    }
    const othersApplied = lines.some((l) => /^#+ The other \d+ SEARCH\/REPLACE blocks? (?:was|were) applied/.test(l));
    const text = this.failure?.text ?? lines[0] ?? '';
    const records: TranscriptRecord[] = [];
    for (const edit of this.pending) {
      if (failed.has(edit.search)) records.push(this.result(edit, loc, text, 'no-match'));
      else if (othersApplied) records.push(this.result(edit, loc, lines.join('\n'), 'applied'));
    }
    if (records.length > 0) {
      this.pending = [];
      this.failure = undefined;
    }
    return records;
  }

  private blockRecords(
    block: AiderBlock,
    loc: SourceLocation,
    first: string,
    explanation: boolean,
  ): TranscriptRecord[] {
    switch (block.kind) {
      case 'run': {
        const m = RUN_TIME.exec(first);
        // The local time of the machine that ran Aider, without its zone: kept as written (no `Z`).
        this.runAt = m === null ? undefined : createIsoTimestamp(`${m[1]}T${m[2]}`);
        this.pending = [];
        this.answerId = undefined;
        return [this.system('aider_run', first, loc, this.runAt, { banner: first })];
      }
      case 'user':
        return [this.user(`${block.startLine}`, loc, block.lines.map((l) => lineText(l, 'user')).join('\n'))];
      case 'answer':
        // Aider's own explanation of a failed edit follows its quoted line unquoted, the blocks that failed in it.
        if (explanation) {
          const note = this.system('aider_output', block.lines.join('\n'), loc, undefined, { unquoted: true });
          return [note, ...this.explained(block, loc)];
        }
        return [this.answer(block, loc)];
      case 'output':
        return this.output(block);
    }
  }

  private answer(block: AiderBlock, loc: SourceLocation): TranscriptRecord {
    const id = `${this.sessionId}:${block.startLine}`;
    this.answerId = id;
    this.pending = [];
    const content: ContentBlock[] = [{ kind: 'text', text: block.lines.join('\n') }];
    const lines = block.lines;
    for (let i = 0; i < lines.length; i += 1) {
      if (!/^<{5,9} SEARCH\s*$/.test(lines[i] ?? '')) continue;
      const divider = lines.findIndex((l, j) => j > i && /^={5,9}\s*$/.test(l));
      const end = lines.findIndex((l, j) => j > divider && /^>{5,9} REPLACE\s*$/.test(l));
      if (divider === -1 || end === -1) continue;
      const before = (lines[i - 1] ?? '').startsWith('```') ? lines[i - 2] : lines[i - 1];
      const filePath = before?.trim() === '' ? undefined : before?.trim();
      const callId = `${this.sessionId}:edit:${block.startLine + i}`;
      content.push({
        kind: 'tool-use',
        id: createToolUseId(callId),
        name: 'edit',
        input: {
          ...(filePath === undefined ? {} : { filePath }),
          search: lines.slice(i + 1, divider).join('\n'),
          replace: lines.slice(divider + 1, end).join('\n'),
        },
      });
      this.pending.push({ id: callId, filePath, search: lines.slice(i + 1, divider).join('\n') });
      i = end;
    }
    return {
      kind: 'assistant',
      ...this.envelope(id, loc),
      messageId: id,
      requestId: undefined,
      model: this.model,
      content,
      usage: undefined,
      stopReason: undefined,
      isApiErrorMessage: false,
      isSynthetic: false,
    };
  }

  private output(block: AiderBlock): TranscriptRecord[] {
    const texts = block.lines.map((l) => lineText(l, 'output'));
    const records: TranscriptRecord[] = [
      this.system('aider_output', texts.join('\n'), this.loc(block.startLine, block.offset), undefined, {}),
    ];
    let offset = block.offset;
    texts.forEach((text, index) => {
      const line = block.startLine + index;
      const loc = this.loc(line, offset);
      offset += Buffer.byteLength(block.lines[index] ?? '', 'utf8') + 1;
      const model = MODEL.exec(text);
      if (model !== null) this.model = model[1] ?? this.model;
      const tokens = TOKENS.exec(text);
      const usage = tokens === null ? undefined : usageOfTokensLine(tokens[1] ?? '');
      if (usage !== undefined) {
        records.push({
          kind: 'assistant',
          ...this.envelope(`${this.sessionId}:tokens:${line}`, loc),
          // The answer it reports on; a report with no answer above it in the run is a response of its own.
          messageId: this.answerId ?? `${this.sessionId}:tokens:${line}`,
          requestId: undefined,
          model: this.model,
          content: [],
          usage,
          stopReason: undefined,
          isApiErrorMessage: false,
          isSynthetic: false,
        });
      }
      const applied = APPLIED.exec(text);
      if (applied !== null) {
        // Once per file, for every block of the answer that edits it; a block whose file name was not found
        // takes the first line that names none of the others.
        const file = applied[1]?.trim();
        let edits = this.pending.filter((p) => p.filePath === file);
        if (edits.length === 0) edits = this.pending.slice(0, 1);
        for (const edit of edits) records.push(this.result(edit, loc, text, 'applied'));
        this.pending = this.pending.filter((p) => !edits.includes(p));
      }
      const skipped = SKIPPED.exec(text);
      if (skipped !== null) {
        const file = skipped[1]?.trim();
        for (const edit of this.pending.filter((p) => p.filePath === file)) {
          records.push(this.result(edit, loc, text, 'skipped'));
        }
        this.pending = this.pending.filter((p) => p.filePath !== file);
      }
      if (NOT_CONFORMING.test(text)) this.failure = { loc, text, outcome: 'not-conforming' };
      if (NO_MATCH.test(text)) this.failure = { loc, text, outcome: 'no-match' };
      const commit = COMMIT.exec(text);
      if (commit !== null) {
        records.push(this.system('aider_commit', text, loc, undefined, { sha: commit[1], message: commit[2] }));
      }
    });
    return records;
  }

  private result(edit: PendingEdit, loc: SourceLocation, text: string, outcome: EditOutcome): TranscriptRecord {
    const failed = outcome !== 'applied';
    return {
      ...this.userBase(`${edit.id}:result`, loc),
      content: [{ kind: 'tool-result', toolUseId: createToolUseId(edit.id), content: text, isError: failed }],
      isMeta: false,
      toolUseResult: { outcome, line: text },
      hasToolUseResult: true,
    };
  }

  private user(uuid: string, loc: SourceLocation, text: string): TranscriptRecord {
    return {
      ...this.userBase(`${this.sessionId}:${uuid}`, loc),
      content: text,
      isMeta: false,
      toolUseResult: undefined,
      hasToolUseResult: false,
    };
  }

  private userBase(uuid: string, loc: SourceLocation) {
    return {
      kind: 'user' as const,
      ...this.envelope(uuid, loc),
      isCompactSummary: false,
      sourceToolAssistantUuid: undefined,
    };
  }

  private system(
    subtype: string,
    content: string,
    loc: SourceLocation,
    at: IsoTimestamp | undefined,
    data: Record<string, unknown>,
  ): TranscriptRecord {
    return {
      kind: 'system',
      ...this.envelope(`${this.sessionId}:${subtype}:${loc.line}`, loc, at),
      subtype,
      content,
      level: 'info',
      isMeta: true,
      logicalParentUuid: undefined,
      data,
    };
  }

  private envelope(uuid: string, loc: SourceLocation, at?: IsoTimestamp): ChainEnvelope {
    return {
      uuid: createRecordUuid(uuid),
      parentUuid: this.previous,
      timestamp: at,
      sessionId: createSessionId(this.sessionId),
      cwd: this.cwd,
      version: undefined,
      gitBranch: undefined,
      isSidechain: false,
      agentId: undefined,
      loc,
    };
  }

  private loc(line: number, offset: number): SourceLocation {
    return { file: this.file, line, offset };
  }
}

function blockBytes(block: AiderBlock): number {
  return block.lines.reduce((sum, line) => sum + Buffer.byteLength(line, 'utf8') + 1, 0);
}
