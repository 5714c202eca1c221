/**
 * Renderers of the kinds that had none of their own (they fell to the generic one): each reads only the typed
 * result, and shows the call's input fields while it has none (running, failed, unanswered).
 */
import { plural, uniquePrefixes } from '@agentdash/core/present';
import type { ReactNode } from 'react';
import type { CallDto } from '../data/types';
import { fmtDuration, knownTimeIso } from '../ui/format';
import { Json } from '../ui/Json';
import { Markdown } from '../ui/Markdown';
import {
  Hunks,
  isObj,
  KV,
  Plain,
  type RendererProps,
  rawInput,
  resultText,
  Section,
  stripReminders,
  typedOf,
} from './common';

/** The call's input as fields (nested values as JSON), as the generic renderer shows it. */
function InputFields({ call }: { call: CallDto }) {
  const i = rawInput(call);
  if (Object.keys(i).length === 0) return null;
  const simple = Object.entries(i).every(([, v]) => !isObj(v) && !Array.isArray(v));
  return simple ? (
    <KV rows={Object.entries(i).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as const)} />
  ) : (
    <Section label="Input">
      <Json value={i} />
    </Section>
  );
}

/**
 * A kind's frame: its test id, the call's input fields (unless the typed view shows them), the typed view, and the
 * result text (unless the typed view shows it, or the result failed: the block shows the error).
 */
function Frame({
  kind,
  call,
  data,
  showsInput = false,
  showsText = false,
  children,
}: {
  kind: string;
  call: CallDto;
  data: unknown;
  showsInput?: boolean;
  showsText?: boolean;
  children: ReactNode;
}) {
  const text = stripReminders(resultText(call.result?.content));
  const typed = data !== undefined;
  return (
    <div data-testid={`renderer-${kind}`} style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      {!(typed && showsInput) && <InputFields call={call} />}
      {typed && children}
      {!(typed && showsText) && call.result && !call.result.isError && text && (
        <Section label="Result">
          <Plain text={text} />
        </Section>
      )}
    </div>
  );
}

/** A wake-up time; none when unknown (0, the epoch, is no time a session set). */
const when = knownTimeIso;

export function LsRenderer({ call }: RendererProps) {
  const data = typedOf(call, 'ls');
  return (
    <Frame kind="ls" call={call} data={data} showsText>
      {data && <Plain text={data.listing} />}
    </Frame>
  );
}

const OPERATION_BADGE = { add: 'ok', update: 'neutral', delete: 'unanswered', move: 'accent' } as const;

export function PatchRenderer({ call }: RendererProps) {
  const data = typedOf(call, 'patch');
  return (
    // The files are the input: its raw patch text would show every change twice.
    <Frame kind="patch" call={call} data={data} showsInput showsText>
      {data?.files.map((file, n) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: files of one patch, in order
        <div key={n}>
          <div className="row">
            <span className="path">{file.path}</span>
            <span className={`badge ${OPERATION_BADGE[file.operation]}`}>{file.operation}</span>
            {file.movePath && <span className="path">→ {file.movePath}</span>}
            {(file.linesAdded !== undefined || file.linesRemoved !== undefined) && (
              <span className="dim" style={{ fontSize: 12 }}>
                +{file.linesAdded ?? 0} −{file.linesRemoved ?? 0}
              </span>
            )}
          </div>
          {file.hunks.length > 0 && <Hunks patch={file.hunks} testId="diff" />}
        </div>
      ))}
      {data?.output && <Plain text={data.output} />}
    </Frame>
  );
}

export function McpResourcesRenderer({ call }: RendererProps) {
  const data = typedOf(call, 'list-mcp-resources') ?? typedOf(call, 'read-mcp-resource-dir');
  const kind = call.result?.typed.kind === 'read-mcp-resource-dir' ? 'read-mcp-resource-dir' : 'list-mcp-resources';
  return (
    <Frame kind={kind} call={call} data={data} showsText>
      {data && (
        <KV
          rows={data.resources.map(
            (r) =>
              [r.uri, [r.name, 'server' in r ? r.server : undefined, r.mimeType].filter(Boolean).join(' · ')] as const,
          )}
        />
      )}
      {data?.resources.length === 0 && <span className="dim">No resources.</span>}
      {data && 'error' in data && data.error && <div className="err-msg">{data.error}</div>}
    </Frame>
  );
}

export function ReadMcpResourceRenderer({ call }: RendererProps) {
  const data = typedOf(call, 'read-mcp-resource');
  return (
    <Frame kind="read-mcp-resource" call={call} data={data} showsText>
      {data?.contents.map((c, n) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: contents of one resource, in order
        <Section key={n} label={[c.uri, c.mimeType].filter(Boolean).join(' · ') || 'content'}>
          {c.text !== undefined ? <Plain text={c.text} /> : <span className="dim">saved to {c.blobSavedTo}</span>}
        </Section>
      ))}
      {data?.error && <div className="err-msg">{data.error}</div>}
    </Frame>
  );
}

export function MonitorRenderer({ call }: RendererProps) {
  const data = typedOf(call, 'monitor');
  return (
    <Frame kind="monitor" call={call} data={data}>
      {data && (
        <KV
          rows={[
            ['task', data.taskId],
            ['timeout', data.timeoutMs === undefined ? undefined : fmtDuration(data.timeoutMs)],
            ['persistent', data.persistent === undefined ? undefined : String(data.persistent)],
          ]}
        />
      )}
    </Frame>
  );
}

export function WorkflowRenderer({ call }: RendererProps) {
  const data = typedOf(call, 'workflow');
  return (
    <Frame kind="workflow" call={call} data={data}>
      {data && (
        <>
          <KV
            rows={[
              ['workflow', data.workflowName],
              ['status', data.status],
              ['task', data.taskId],
              ['run', data.runId],
              ['transcripts', data.transcriptDir],
              ['script', data.scriptPath],
            ]}
          />
          {data.summary && <Markdown text={data.summary} />}
          {data.warning && <div className="dim">{data.warning}</div>}
          {data.error && <div className="err-msg">{data.error}</div>}
        </>
      )}
    </Frame>
  );
}

export function SendMessageRenderer({ call }: RendererProps) {
  const data = typedOf(call, 'send-message');
  return (
    <Frame kind="send-message" call={call} data={data} showsText>
      {data && (
        <>
          <div className="row">
            <span className={`badge ${data.success ? 'ok' : 'unanswered'}`}>
              {data.success ? 'delivered' : 'not delivered'}
            </span>
          </div>
          <Markdown text={data.display ?? data.message} />
        </>
      )}
    </Frame>
  );
}

export function ListAgentsRenderer({ call }: RendererProps) {
  const data = typedOf(call, 'list-agents');
  return (
    <Frame kind="list-agents" call={call} data={data} showsText>
      {data && <Plain text={data.listing} />}
    </Frame>
  );
}

export function ReportFindingsRenderer({ call }: RendererProps) {
  const data = typedOf(call, 'report-findings');
  return (
    <Frame kind="report-findings" call={call} data={data} showsInput>
      {data && (
        <>
          <div className="row dim" style={{ fontSize: 12 }}>
            {data.count} finding{data.count === 1 ? '' : 's'}
            {data.level ? ` · ${data.level}` : ''}
          </div>
          {data.findings.map((f, n) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: findings of one report, in order
            <div key={n}>
              <div className="row">
                <span className="path">
                  {f.file}
                  {f.line !== undefined ? `:${f.line}` : ''}
                </span>
                {f.severity && <span className="pill">{f.severity}</span>}
                {f.category && <span className="pill">{f.category}</span>}
              </div>
              <Markdown text={f.summary} />
              {f.failureScenario && <div className="dim">{f.failureScenario}</div>}
            </div>
          ))}
        </>
      )}
    </Frame>
  );
}

export function ScheduleWakeupRenderer({ call }: RendererProps) {
  const data = typedOf(call, 'schedule-wakeup');
  return (
    <Frame kind="schedule-wakeup" call={call} data={data}>
      {data && (
        <KV
          rows={[
            ['wakes at', data.stopped ? undefined : when(data.scheduledFor)],
            ['delay', fmtDuration(data.clampedDelaySeconds * 1000)],
            ['clamped', data.wasClamped ? 'yes' : undefined],
            ['stopped', data.stopped ? 'yes' : undefined],
            ['cancelled wakeups', data.cancelledWakeups],
          ]}
        />
      )}
    </Frame>
  );
}

export function GoalRenderer({ call }: RendererProps) {
  const data = typedOf(call, 'goal');
  return (
    <Frame kind="goal" call={call} data={data} showsInput showsText>
      {data && (
        <KV
          rows={[
            ['objective', data.objective],
            ['status', data.status],
            ['tokens used', data.tokensUsed?.toLocaleString('en-US')],
            ['token budget', data.tokenBudget?.toLocaleString('en-US')],
            ['time used', data.timeUsedSeconds === undefined ? undefined : fmtDuration(data.timeUsedSeconds * 1000)],
            ['report asked', data.report],
          ]}
        />
      )}
    </Frame>
  );
}

export function MemoryRenderer({ call }: RendererProps) {
  const data = typedOf(call, 'memory');
  return (
    <Frame kind="memory" call={call} data={data} showsInput showsText>
      {data && (
        <KV
          rows={[
            ['fact', data.fact],
            ['saved', data.saved ? 'yes' : 'no'],
            ['answer', data.message],
          ]}
        />
      )}
    </Frame>
  );
}

export function TopicRenderer({ call }: RendererProps) {
  const data = typedOf(call, 'topic');
  return (
    <Frame kind="topic" call={call} data={data} showsInput>
      {data && (
        <KV
          rows={[
            ['topic', data.title],
            ['summary', data.summary],
            ['intent', data.strategicIntent],
          ]}
        />
      )}
    </Frame>
  );
}

export function ProcessListRenderer({ call }: RendererProps) {
  const data = typedOf(call, 'process-list');
  return (
    <Frame kind="process-list" call={call} data={data} showsInput showsText>
      {data &&
        (data.processes.length === 0 ? (
          <div className="dim">no background processes</div>
        ) : (
          <KV
            rows={data.processes.map(
              (p) => [`${p.pid ?? '?'} · ${p.status}`, <code key="c">{p.command}</code>] as const,
            )}
          />
        ))}
    </Frame>
  );
}

export function TaskCompleteRenderer({ call }: RendererProps) {
  const data = typedOf(call, 'task-complete');
  return (
    <Frame kind="task-complete" call={call} data={data} showsInput showsText>
      {data && (
        <Section label="Submitted result">
          <Markdown text={data.result} />
        </Section>
      )}
    </Frame>
  );
}

/** Codex's wait for subagents: each agent's state, and its last message as Markdown (the answer is JSON). */
export function AgentWaitRenderer({ call }: RendererProps) {
  const data = typedOf(call, 'agent-wait');
  // Prefixes that tell apart every agent the call waited for (its input's targets), not only those that answered.
  const targets = rawInput(call).targets;
  const asked = Array.isArray(targets) ? targets.filter((t): t is string => typeof t === 'string') : [];
  const names = uniquePrefixes([...asked, ...(data?.agents.map((a) => a.agentId) ?? [])]);
  return (
    <Frame kind="agent-wait" call={call} data={data} showsText>
      {data && (
        <>
          <div className="row dim" style={{ fontSize: 12 }}>
            {data.agents.length > 0 && <span>{plural(data.agents.length, 'agent')}</span>}
            {data.timedOut === true && <span className="badge pending">timed out</span>}
            {data.message && <span>{data.message}</span>}
          </div>
          {data.agents.map((agent) => (
            <Section
              key={agent.agentId}
              label={
                <>
                  <span className="mono" style={{ textTransform: 'none' }} title={agent.agentId}>
                    {names.get(agent.agentId) ?? agent.agentId}
                  </span>{' '}
                  · {agent.status}
                </>
              }
            >
              {agent.text ? <Markdown text={agent.text} /> : <span className="dim">no message</span>}
            </Section>
          ))}
        </>
      )}
    </Frame>
  );
}
