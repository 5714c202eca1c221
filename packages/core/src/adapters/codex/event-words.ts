import { str } from '../../internal/guards.js';
import type { ContentBlock } from '../../model/content.js';
import type { AssistantRecord } from '../../model/record.js';

/**
 * The agent's words Codex wrote as events (`agent_message`, `agent_reasoning`: each before the response item that
 * repeats it, 0.1x–0.98), waiting for that item. A turn that ends without it (aborted: ../shared/wild-agents
 * cpolar-connect-1 and agentcmd-1, 15 events; or a turn the next one follows at once) leaves the events the only
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

  /**
   * An event's words (`agent_message`'s message, `agent_reasoning`'s text), as the record `make` makes of them when
   * they come (their response, model and place).
   */
  note(payload: Record<string, unknown>, make: (blocks: readonly ContentBlock[]) => AssistantRecord): void {
    const message = payload.type === 'agent_message';
    const text = str(message ? payload.message : payload.text);
    if (text === undefined || text.trim() === '') return;
    const kind = message ? 'text' : 'thinking';
    if (this.seen.some((item) => item.kind === kind && item.text.includes(text))) return;
    const blocks: ContentBlock[] = message ? [{ kind: 'text', text }] : [{ kind: 'thinking', thinking: text }];
    this.pending.push({ kind, text, record: make(blocks) });
  }

  /** A response item's text: the events it repeats wait no more. */
  repeated(kind: 'text' | 'thinking', text: string): void {
    this.seen.push({ kind, text });
    if (this.seen.length > SEEN) this.seen.shift();
    if (this.pending.length > 0) this.pending = this.pending.filter((p) => p.kind !== kind || !text.includes(p.text));
  }

  /** The turn ended: the records of the words no response item repeated, in the order they came. */
  unrepeated(): AssistantRecord[] {
    const out = this.pending.map((p) => p.record);
    this.pending = [];
    this.seen = [];
    return out;
  }
}
