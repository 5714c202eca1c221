import {
  formatResponseOutput,
  modelLabel,
  noteLabel,
  otherBlockLabel,
  repeatsUnwrittenThinking,
} from '@agentdash/core/present';
import type { EventDto, ImageValue } from '../data/types';
import { LoggedImage } from '../renderers/common';
import { Ansi } from '../ui/Ansi';
import { CopyButton } from '../ui/CopyButton';
import { fmtTime } from '../ui/format';
import { LongText } from '../ui/LongText';
import { Markdown } from '../ui/Markdown';
import { NoteText } from './NoteText';
import { RawDetails } from './RawDetails';
import { ThinkingBlock } from './ThinkingBlock';
import { ToolBlock } from './ToolBlock';

/** An other-block's name (core's rule) from the block the server sent as its raw data, or its count left out. */
function otherBlockLabelOf(item: { readonly type: string; readonly raw: unknown }): string {
  return otherBlockLabel(
    item.type === 'omitted' ? { kind: 'omitted' } : (item.raw as Parameters<typeof otherBlockLabel>[0]),
  );
}

/** A message's images in a row: under its text (a prompt), or beside its label (`inline`: a note). */
function PromptImages({ images, inline = false }: { images: readonly ImageValue[]; inline?: boolean }) {
  if (images.length === 0) return null;
  return (
    <div className="row" style={{ marginTop: inline ? 0 : 8 }}>
      {images.map((img, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: images of one prompt
        <LoggedImage key={i} img={img} alt={`attachment ${i + 1}`} testId="prompt-image" />
      ))}
    </div>
  );
}

/** `previous`: the event before it in the same timeline, when known (a continuing assistant turn drops its label). */
export function EventView({ event, previous }: { event: EventDto; previous?: EventDto | undefined }) {
  switch (event.kind) {
    case 'prompt':
      return (
        <div className="ev">
          <div className="ev-prompt" data-testid="prompt">
            {/* a heading (as the reply's), so that a screen reader moves from message to message (the title is h1) */}
            <h2 className="ev-label">
              User
              <span className="time">{fmtTime(event.timestamp)}</span>
            </h2>
            <CopyButton text={event.text} name="Copy prompt" className="floating" testId="copy-message" />
            <div className="prompt-text">
              <LongText text={event.text} render={(text) => <Ansi text={text} />} />
            </div>
            <PromptImages images={event.images} />
            {(event.others ?? []).map((item, i) => (
              // Never dropped silently: a document or a block of another kind is named, its raw data on demand.
              <RawDetails
                // biome-ignore lint/suspicious/noArrayIndexKey: blocks of one prompt keep their order
                key={i}
                keptAs={`prompt-block:${event.uuid}:${i}`}
                testId="prompt-block"
                summary={<span className="badge neutral">{otherBlockLabelOf(item)}</span>}
                raw={JSON.stringify(item.raw, null, 2)}
              />
            ))}
          </div>
        </div>
      );
    case 'assistant': {
      const tokensOut = formatResponseOutput(event.usage ?? undefined);
      // A text block of whitespace alone (a "\n\n" some clients write before their thinking) draws nothing.
      const items = event.items.filter((item) => item.kind !== 'text' || item.text.trim() !== '');
      // A billed response with nothing to show (a Codex compaction's, whose summary is the note after it): one line
      // saying it was made and what it cost, not an empty box.
      if (items.length === 0 && !event.isApiError) {
        return (
          <div className="ev-note" data-testid="assistant-empty">
            <span className="badge neutral">response</span>
            <span>
              {[event.model === null ? null : modelLabel(event.model), tokensOut, 'no text']
                .filter((part) => part !== null && part !== '')
                .join(' · ')}
            </span>
            <span style={{ marginLeft: 'auto' }}>{fmtTime(event.timestamp)}</span>
          </div>
        );
      }
      // After a one-line response (no box above it) the turn is labelled again.
      const continues =
        previous?.kind === 'assistant' &&
        previous.items.length > 0 &&
        previous.model === event.model &&
        !event.isApiError;
      return (
        <div className={`ev ${continues ? 'ev-cont' : ''}`}>
          <div className="ev-assistant" data-testid="assistant">
            <h2 className={`ev-label ${continues ? 'ev-label-cont' : ''}`}>
              <span>Assistant</span>
              {event.model && (
                <span className="pill" style={{ textTransform: 'none', letterSpacing: 0 }}>
                  {modelLabel(event.model)}
                </span>
              )}
              {event.isApiError && <span className="badge error">API error</span>}
              <span className="time">
                {tokensOut === '' ? '' : `${tokensOut} · `}
                {fmtTime(event.timestamp)}
              </span>
            </h2>
            {items.map((item, i) => {
              switch (item.kind) {
                case 'text':
                  return (
                    <div
                      // biome-ignore lint/suspicious/noArrayIndexKey: items keep their order
                      key={i}
                      className={`ev-text ${event.isApiError ? 'api-error' : ''}`}
                      data-testid="assistant-text"
                    >
                      <CopyButton text={item.text} name="Copy reply" className="floating" testId="copy-message" />
                      <LongText text={item.text} render={(text) => <Markdown text={text} />} />
                    </div>
                  );
                case 'thinking':
                  // thinking without its text right after another: said once (core's rule)
                  if (repeatsUnwrittenThinking(items, i)) return null;
                  return (
                    <ThinkingBlock
                      // biome-ignore lint/suspicious/noArrayIndexKey: items keep their order
                      key={i}
                      thinking={item.thinking}
                      redacted={item.redacted}
                      keptAs={`${event.messageId}:${event.index}:${i}`}
                    />
                  );
                case 'tool-call':
                  return <ToolBlock key={item.id} call={item} />;
                case 'other-block':
                  // Never dropped silently: a block of another kind is named and its raw data shown on demand.
                  return (
                    <RawDetails
                      // biome-ignore lint/suspicious/noArrayIndexKey: items keep their order
                      key={i}
                      keptAs={`block:${event.messageId}:${event.index}:${i}`}
                      testId="other-block"
                      summary={<span className="badge neutral">{otherBlockLabelOf(item)}</span>}
                      raw={JSON.stringify(item.raw, null, 2)}
                    />
                  );
                default:
                  return item satisfies never;
              }
            })}
          </div>
        </div>
      );
    }
    case 'note':
      if (event.source === 'unknown') {
        // A record type AgentDash does not know: shown with its raw data (as text, escaped by React).
        return (
          <RawDetails
            keptAs={`record:${event.index}:${event.timestamp ?? ''}:${event.label}`}
            testId="unknown-record"
            summary={
              <>
                <span className="badge unanswered">unknown record</span>
                <span className="mono">{event.label}</span>
                <span style={{ marginLeft: 'auto' }}>{fmtTime(event.timestamp)}</span>
              </>
            }
            raw={event.text}
          />
        );
      }
      return (
        <div className={event.images ? 'ev-note with-images' : 'ev-note'} data-testid="note">
          <span className={`badge ${event.label === 'api_error' || event.level === 'error' ? 'error' : 'neutral'}`}>
            {noteLabel(event.label)}
          </span>
          {event.text && <NoteText text={event.text} />}
          {event.images && <PromptImages images={event.images} inline />}
          <span style={{ marginLeft: 'auto' }}>{fmtTime(event.timestamp)}</span>
        </div>
      );
    default:
      return event satisfies never;
  }
}
