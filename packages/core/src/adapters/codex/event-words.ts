import { str } from '../../internal/guards.js';
import type { ContentBlock } from '../../model/content.js';
import type { AssistantRecord } from '../../model/record.js';

/**
 * The agent's words Codex wrote as events (`agent_message`, `agent_reasoning`: each before the response item that
 * repeats it, 0.1x–0.98), waiting for that item. A turn that ends without it (aborted: ../shared/wild-agents
 * cpolar-connect-1 and agentcmd-1, 15 events) leaves the events the only
 * record of what the agent said: they are then its words, as the response item would have been.
 */
/** How many of the turn's last response items an event is looked for in. */
const SEEN = 32;

export class EventWords {
  private pending: { readonly kind: 'text' | 'thinking'; readonly text: string; readonly record: AssistantRecord }[] =
    [];
  /**
   * The turn's last response items' texts: an event right after the item it repeats (0.144, some older) waits for
   * none. The last few only: an event comes next to its item, and a turn may be a whole long session.
   */
  private seen: { readonly kind: 'text' | 'thinking'; readonly text: string }[] = [];
  private afterCompaction = false;
  /** Words given at the turn's abort: an item after it repeating them is no new answer. */
  private given: { readonly kind: 'text' | 'thinking'; readonly text: string }[] = [];

  /**
   * An event's words (`agent_message`'s message, `agent_reasoning`'s text), as the record `make` makes of them when
   * they come (their response, model and place).
   */
  note(payload: Record<string, unknown>, make: (blocks: readonly ContentBlock[]) => AssistantRecord): void {
    const message = payload.type === 'agent_message';
    if (message && this.afterCompaction) {
      this.afterCompaction = false;
      return;
    }
    const text = str(message ? payload.message : payload.text);
    if (text === undefined || text.trim() === '') return;
    const kind = message ? 'text' : 'thinking';
    if (this.seen.some((item) => item.kind === kind && item.text.includes(text))) return;
    const blocks: ContentBlock[] = message ? [{ kind: 'text', text }] : [{ kind: 'thinking', thinking: text }];
    this.pending.push({ kind, text, record: make(blocks) });
  }

  /** A compaction: the client's "Compact task completed", the next agent message, is its notice, not the agent's. */
  compacted(): void {
    this.afterCompaction = true;
  }

  /**
   * A response item's text: the events it repeats wait no more. True when the item only repeats words its turn's abort
   * gave already (0.40 writes an aborted turn's items after its `turn_aborted`): it is no new answer.
   */
  repeated(kind: 'text' | 'thinking', text: string): boolean {
    let rest = text;
    for (const word of this.given) if (word.kind === kind) rest = rest.replace(word.text, '');
    if (text.trim() !== '' && rest.trim() === '') return true;
    this.seen.push({ kind, text });
    if (this.seen.length > SEEN) this.seen.shift();
    if (this.pending.length > 0) this.pending = this.pending.filter((p) => p.kind !== kind || !text.includes(p.text));
    return false;
  }

  /** The turn was aborted: the words no item repeated yet are the agent's, here (`unrepeated`), and kept in mind. */
  aborted(): AssistantRecord[] {
    this.given.push(...this.pending.map(({ kind, text }) => ({ kind, text })));
    const out = this.pending.map((p) => p.record);
    this.pending = [];
    return out;
  }

  /** The turn ended: the records of the words no response item repeated, in the order they came. */
  unrepeated(): AssistantRecord[] {
    const out = this.pending.map((p) => p.record);
    this.pending = [];
    this.seen = [];
    this.given = [];
    return out;
  }
}
