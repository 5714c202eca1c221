import { useEffect, useState } from 'react';
import { useTimeline } from '../timeline/context';
import { fmtDuration, fmtNumber } from '../ui/format';
import { Markdown } from '../ui/Markdown';
import { arr, input, num, obj, ok, type RendererProps, resultText, Section, str, tur, typedData } from './common';

export function AgentRenderer({ call }: RendererProps) {
  const i = input(call);
  const t = tur(call);
  const { expand, openAll, SubagentView } = useTimeline();
  const sub = call.subagent;
  const [open, setOpen] = useState(expand.has(call.id));
  useEffect(() => {
    if (openAll.version > 0) setOpen(openAll.open);
  }, [openAll]);
  useEffect(() => {
    if (expand.has(call.id)) setOpen(true);
  }, [expand, call.id]);
  const usage = obj(t.usage);
  const tokens = num(t.totalTokens);
  const tools = num(t.totalToolUseCount) ?? sub?.toolCalls;
  const duration = num(t.totalDurationMs);
  // Core's typed text has the client's harness notes and the agentId/usage trailer removed.
  const typedText = str(typedData(call, 'agent')?.text);
  const report = ok(call)
    ? (typedText ?? resultText(call.result?.content))
        .replace(/^\s*\[Subagent hand-back\][^\n]*\n*/, '')
        .replace(/\n*agentId: [^\n]*\(for resuming[^\n]*\)\s*$/, '')
        .trim()
    : '';
  const agentType = str(t.agentType) ?? str(i.subagent_type) ?? sub?.agentType ?? undefined;
  return (
    <div data-testid="renderer-Agent" style={{ display: 'flex', flexDirection: 'column', gap: 10 }}>
      <div className="row">
        {agentType && <span className="badge accent">{agentType}</span>}
        {str(i.model) && <span className="pill">{str(i.model)}</span>}
        {(t.isAsync === true || i.run_in_background === true) && <span className="badge pending">background</span>}
        {str(t.status) && <span className="badge neutral">{str(t.status)}</span>}
      </div>
      {(tokens !== undefined || tools !== undefined || duration !== undefined) && (
        <div className="totals" data-testid="agent-totals">
          {tokens !== undefined && (
            <span>
              <b>{fmtNumber(tokens)}</b> tokens
            </span>
          )}
          {num(usage.output_tokens) !== undefined && (
            <span>
              <b>{fmtNumber(num(usage.output_tokens))}</b> output
            </span>
          )}
          {tools !== undefined && (
            <span>
              <b>{tools}</b> tool calls
            </span>
          )}
          {duration !== undefined && (
            <span>
              <b>{fmtDuration(duration)}</b>
            </span>
          )}
          {arr(t.toolsUsed).length > 0 && <span className="dim">used {arr(t.toolsUsed).join(', ')}</span>}
        </div>
      )}
      {str(i.prompt) && (
        <Section label="Prompt">
          <div className="md" style={{ color: 'var(--text-2)', whiteSpace: 'pre-wrap', fontSize: 13 }}>
            {str(i.prompt)}
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
            <span className="chev" style={{ transform: open ? 'rotate(90deg)' : undefined }}>
              ▶
            </span>
            <span style={{ fontWeight: 600, fontSize: 13 }}>Subagent timeline</span>
            <span className="dim" style={{ fontSize: 12 }}>
              {sub.events} events · {sub.toolCalls} tool calls
            </span>
          </button>
          {open && (
            <div className="subagent-body" data-testid="subagent-timeline">
              <SubagentView agentKey={sub.key} />
            </div>
          )}
        </div>
      )}
      {report && (
        <Section label="Report">
          <Markdown text={report} />
        </Section>
      )}
      {str(t.outputFile) && (
        <div className="dim">
          Output file: <span className="path">{str(t.outputFile)}</span>
        </div>
      )}
    </div>
  );
}
