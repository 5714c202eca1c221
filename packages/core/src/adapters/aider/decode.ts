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
import { unknownModelOf } from '../../model/unknown-model.js';
import { type AiderBlock, aiderBlocks, lineText } from './blocks.js';
import { searchParts, searchReplaceEdits, usageOfLegacyTokensLine, wholeFileEdits } from './edit-blocks.js';

/** The model named for answers of a run whose banner names none (never priced). */
export const UNKNOWN_AIDER_MODEL = unknownModelOf('aider');

const RUN_TIME = /^# aider chat started at (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})/;
const MODEL = /^(?:Main model|Model): (\S+)/;
/** `Tokens: … received.` then, when the model's prices are known, ` Cost: $… message, $… session.` */
const TOKENS = /^Tokens: (.*?)\.(?: Cost: (.*))?$/;
const APPLIED = /^Applied edit to (.+)$/;
const NOT_CONFORMING = /^The LLM did not conform to the edit format/;
const COMMIT = /^Commit ([0-9a-f]{7,40}) (.*)$/;
const SKIPPED = /^Skipping edits to (.+)$/;
const NO_MATCH = /^# \d+ SEARCH\/REPLACE blocks? failed to match/;
/**
 * Aider 0.1x: `Malformed response #1, retrying...` then `InvalidEditBlock: edit failed!` (its reason unquoted below),
 * or `Malformed response #3, aborting.`: the answer's edits were not applied.
 */
const LEGACY_FAILED = /^(?:InvalidEditBlock: |Malformed response #\d+, )/;
/** Aider 0.1x's unquoted reason for a failed edit: the part to replace was not found. */
const LEGACY_NO_MATCH = /does not contain the \*exact sequence\*/;

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
  /** A legacy token report seen above the answer it counts: that answer's message id. */
  private reportedAhead: string | undefined;
  private pending: PendingEdit[] = [];
  /** `The LLM did not conform…` / `# N … failed to match` seen: which edits failed is told below it. */
  private failure: { loc: SourceLocation; text: string; outcome: EditOutcome; legacy?: boolean } | undefined;

  constructor(
    private readonly file: string,
    private readonly sessionId: string,
    private readonly cwd: string,
  ) {}

  decode(text: string, emit: (event: RecordEvent) => void): void {
    const blocks = aiderBlocks(text);
    blocks.forEach((block, index) => {
      const records = this.block(block, block.kind === 'answer' ? appliedBelow(blocks, index) : new Set());
      records.forEach((record, index) => {
        if ('uuid' in record) this.previous = record.uuid;
        emit({ kind: 'record', record, byteLength: index === 0 ? blockBytes(block) : 0 });
      });
    });
    // A failure reported on the file's last lines: its edits are not left waiting.
    for (const record of this.flushFailure()) {
      if ('uuid' in record) this.previous = record.uuid;
      emit({ kind: 'record', record, byteLength: 0 });
    }
  }

  private block(block: AiderBlock, applied: ReadonlySet<string>): TranscriptRecord[] {
    const loc = this.loc(block.startLine, block.offset);
    const first = block.lines[0] ?? '';
    const legacy = this.failure?.legacy === true && LEGACY_NO_MATCH.test(first);
    if (legacy && this.failure !== undefined) this.failure = { ...this.failure, outcome: 'no-match' };
    const explanation = block.kind === 'answer' && (legacy || /^#+ SearchReplaceNoExactMatch/.test(first));
    const flushed = block.kind === 'output' || explanation ? [] : this.flushFailure();
    return [...flushed, ...this.blockRecords(block, loc, first, explanation, applied)];
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
    const lines = block.lines;
    const failed = searchParts(lines);
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
    applied: ReadonlySet<string>,
  ): TranscriptRecord[] {
    switch (block.kind) {
      case 'run': {
        const m = RUN_TIME.exec(first);
        // The local time of the machine that ran Aider, without its zone: kept as written (no `Z`).
        this.runAt = m === null ? undefined : createIsoTimestamp(`${m[1]}T${m[2]}`);
        this.pending = [];
        this.answerId = undefined;
        this.reportedAhead = undefined;
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
        return [this.answer(block, loc, applied)];
      case 'output':
        return this.output(block);
    }
  }

  private answer(block: AiderBlock, loc: SourceLocation, applied: ReadonlySet<string>): TranscriptRecord {
    const id = `${this.sessionId}:${block.startLine}`;
    const messageId = this.reportedAhead ?? id;
    this.reportedAhead = undefined;
    this.answerId = messageId;
    this.pending = [];
    const content: ContentBlock[] = [{ kind: 'text', text: block.lines.join('\n') }];
    const edits = searchReplaceEdits(block.lines);
    for (const edit of edits) {
      const callId = `${this.sessionId}:edit:${block.startLine + edit.index}`;
      const { filePath, search, replace } = edit;
      const input = { ...(filePath === undefined ? {} : { filePath }), search, replace };
      content.push({ kind: 'tool-use', id: createToolUseId(callId), name: 'edit', input });
      this.pending.push({ id: callId, filePath, search });
    }
    // Whole files (the `whole` edit format, never mixed with SEARCH/REPLACE blocks in one answer) that Aider said
    // right below the answer it applied.
    for (const whole of edits.length > 0 ? [] : wholeFileEdits(block.lines, applied)) {
      const callId = `${this.sessionId}:write:${block.startLine + whole.index}`;
      const input = { filePath: whole.filePath, content: whole.content };
      content.push({ kind: 'tool-use', id: createToolUseId(callId), name: 'write', input });
      this.pending.push({ id: callId, filePath: whole.filePath, search: '' });
    }
    return {
      kind: 'assistant',
      ...this.envelope(id, loc),
      messageId,
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
      const legacy = usageOfLegacyTokensLine(text);
      const usage = tokens === null ? legacy : usageOfTokensLine(tokens[1] ?? '');
      // A legacy report counts the answer below it: that answer takes this report's id as its message id.
      if (legacy !== undefined) this.reportedAhead = `${this.sessionId}:tokens:${line}`;
      if (usage !== undefined) {
        records.push({
          kind: 'assistant',
          ...this.envelope(`${this.sessionId}:tokens:${line}`, loc),
          // The answer it reports on; a report with no answer above it in the run is a response of its own.
          messageId: this.reportedAhead ?? this.answerId ?? `${this.sessionId}:tokens:${line}`,
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
      if (LEGACY_FAILED.test(text)) this.failure = { loc, text, outcome: 'not-conforming', legacy: true };
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

/** The files Aider said it applied an edit to in the output right below an answer (before the next prompt or answer). */
function appliedBelow(blocks: readonly AiderBlock[], index: number): Set<string> {
  const files = new Set<string>();
  for (const block of blocks.slice(index + 1)) {
    if (block.kind !== 'output') break;
    for (const line of block.lines) {
      const m = APPLIED.exec(lineText(line, 'output'));
      if (m?.[1] !== undefined) files.add(m[1].trim());
    }
  }
  return files;
}

function blockBytes(block: AiderBlock): number {
  return block.lines.reduce((sum, line) => sum + Buffer.byteLength(line, 'utf8') + 1, 0);
}
