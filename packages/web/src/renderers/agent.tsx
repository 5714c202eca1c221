import { useKeptOpen, useTimeline } from '../timeline/context';
import { fmtDuration, fmtNumber, nounFor } from '../ui/format';
import { Markdown } from '../ui/Markdown';
import { inputOf, ok, type RendererProps, resultText, Section, typedOf } from './common';

/** What the client's figures of a subagent's tokens are. */
const LAST_TURN =
  "the client's figures of the subagent's last response (input, cache and output), not a sum of its responses: the session's usage counts each";

export function AgentRenderer({ call }: RendererProps) {
  const i = inputOf(call);
  const t = typedOf(call, 'agent');
  const { SubagentView } = useTimeline();
  const sub = call.subagent;
  const [open, setOpen] = useKeptOpen(`subagent:${call.id}`, { call: call.id });
  const outputTokens = t?.usage?.outputTokens;
  const tokens = t?.totalTokens;
  const tools = t?.totalToolUseCount ?? sub?.toolCalls;
  const duration = t?.totalDurationMs;
  const stats = t?.toolStats;
  const added = stats?.linesAdded ?? 0;
  const removed = stats?.linesRemoved ?? 0;
  // the client's count of what the subagent did, by kind (Claude Code 2.1.x), the kinds it did
  const byKind = (
    [
      [stats?.reads, 'read'],
      [stats?.searches, 'search'],
      [stats?.commands, 'command'],
      [stats?.fileEdits, 'file edit'],
      [stats?.others, 'other call'],
    ] as const
  )
    .filter(([n]) => (n ?? 0) > 0)
    .map(([n = 0, noun]) => `${fmtNumber(n)} ${nounFor(n, noun)}`);
  // Core's typed text has the client's harness notes and the agentId/usage trailer removed.
  const typedText = t?.text;
  const report = ok(call)
    ? (typedText ?? resultText(call.result?.content))
        .replace(/^\s*\[Subagent hand-back\][^\n]*\n*/, '')
        .replace(/\n*agentId: [^\n]*\(for resuming[^\n]*\)\s*$/, '')
        .trim()
    : '';
  const agentType = t?.agentType ?? i.agentType ?? sub?.agentType ?? undefined;
  return (
    <div data-testid="renderer-Agent" style={{ display: 'flex', flexDirection: 'column', gap: 10 }}>
      <div className="row">
        {agentType && <span className="badge accent">{agentType}</span>}
        {i.model && <span className="pill">{i.model}</span>}
        {(t?.status === 'async_launched' || i.background === true) && <span className="badge pending">background</span>}
        {t?.status && <span className="badge neutral">{t.status}</span>}
      </div>
      {(tokens !== undefined || tools !== undefined || duration !== undefined || stats !== undefined) && (
        <div className="totals" data-testid="agent-totals">
          {/* Claude Code's totalTokens and usage are its last response's (its context then, and what it wrote),
              never a sum of its responses: the session's usage counts each one (a review read 19.1k "tokens" of a
              subagent that used 98.7k) */}
          {tokens !== undefined && (
            <span title={LAST_TURN}>
              <b>{fmtNumber(tokens)}</b> tokens of context at its end
            </span>
          )}
          {outputTokens !== undefined && (
            <span title={LAST_TURN}>
              <b>{fmtNumber(outputTokens)}</b> output in its last response
            </span>
          )}
          {tools !== undefined && (
            <span>
              <b>{tools}</b> {nounFor(tools, 'tool call')}
            </span>
          )}
          {duration !== undefined && (
            <span>
              <b>{fmtDuration(duration)}</b>
            </span>
          )}
          {added + removed > 0 && (
            <span data-testid="agent-lines">
              <b style={{ color: 'var(--add-text)' }}>+{fmtNumber(added)}</b>{' '}
              <b style={{ color: 'var(--del-text)' }}>−{fmtNumber(removed)}</b> lines
            </span>
          )}
          {byKind.length > 0 && <span className="dim">{byKind.join(' · ')}</span>}
          {(t?.toolsUsed?.length ?? 0) > 0 && <span className="dim">used {t?.toolsUsed?.join(', ')}</span>}
        </div>
      )}
      {i.prompt && (
        <Section label="Prompt">
          <div className="md" style={{ color: 'var(--text-2)', whiteSpace: 'pre-wrap', fontSize: 13 }}>
            {i.prompt}
          </div>
        </Section>
      )}
      {sub && (
        <div className="subagent" data-testid="subagent">
          <button
            type="button"
            className="subagent-head"
            onClick={() => setOpen((o) => !o)}
            data-testid="subagent-toggle"
            aria-expanded={open}
          >
            <span className="chev" aria-hidden="true" style={{ transform: open ? 'rotate(90deg)' : undefined }}>
              ▶
            </span>
            <span style={{ fontWeight: 600, fontSize: 13 }}>Subagent timeline</span>
            <span className="dim" style={{ fontSize: 12 }}>
              {sub.events} {nounFor(sub.events, 'event')} · {sub.toolCalls} {nounFor(sub.toolCalls, 'tool call')}
            </span>
          </button>
          {open && (
            <div className="subagent-body" data-testid="subagent-timeline">
              <SubagentView agentKey={sub.key} callPrompt={typeof i.prompt === 'string' ? i.prompt : undefined} />
            </div>
          )}
        </div>
      )}
      {report &&
        (t?.status === 'async_launched' ? (
          // A background agent's result is its launch, not its report: that comes later, as a note of its own.
          <Section label="Launched">
            <div className="dim" data-testid="agent-launched">
              It ran in the background: its report is the "Background task" note that came when it finished, and the end
              of its timeline. The client answered the launch:
            </div>
            <Markdown text={report} />
          </Section>
        ) : (
          <Section label="Report">
            {isJsonDocument(report) ? (
              // A structured result (a Gemini CLI subagent's output schema): Markdown would join its lines.
              <pre className="json" data-testid="agent-report-json">
                {report}
              </pre>
            ) : (
              <Markdown text={report} />
            )}
          </Section>
        ))}
      {t?.outputFile && (
        <div className="dim">
          Output file: <span className="path">{t.outputFile}</span>
        </div>
      )}
    </div>
  );
}

/** Whether a report is a JSON object or array as written, rather than words. */
function isJsonDocument(text: string): boolean {
  if (!/^[[{]/.test(text)) return false;
  try {
    return typeof JSON.parse(text) === 'object';
  } catch {
    return false;
  }
}
