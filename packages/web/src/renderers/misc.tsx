import { Json } from '../ui/Json';
import { Markdown } from '../ui/Markdown';
import {
  arr,
  Images,
  input,
  isObj,
  KV,
  num,
  obj,
  ok,
  Plain,
  type RendererProps,
  resultImages,
  resultText,
  Section,
  str,
  stripReminders,
  tur,
} from './common';

export function AskUserQuestionRenderer({ call }: RendererProps) {
  const i = input(call);
  const t = tur(call);
  const questions = arr(t.questions ?? i.questions).map(obj);
  const answers = obj(t.answers);
  return (
    <div data-testid="renderer-AskUserQuestion" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      {questions.map((q, n) => {
        const question = str(q.question) ?? '';
        const answer = str(answers[question]);
        const chosen = new Set((answer ?? '').split(',').map((s) => s.trim()));
        const labels = new Set(arr(q.options).map((o) => str(obj(o).label)));
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: questions of one call
          <div className="q" key={n}>
            <div className="q-title">
              {str(q.header) && (
                <span className="badge neutral" style={{ marginRight: 8 }}>
                  {str(q.header)}
                </span>
              )}
              {question}
              {q.multiSelect === true && (
                <span className="dim" style={{ fontSize: 12 }}>
                  {' '}
                  (multiple)
                </span>
              )}
            </div>
            {arr(q.options).map((o) => {
              const opt = obj(o);
              const label = str(opt.label) ?? '';
              const isChosen = chosen.has(label) || answer === label;
              return (
                <div
                  key={label}
                  className={`q-opt ${isChosen ? 'chosen' : ''}`}
                  data-testid={isChosen ? 'chosen-answer' : undefined}
                >
                  <span>{isChosen ? '●' : '○'}</span>
                  <span>
                    {label}
                    {str(opt.description) && <div className="desc">{str(opt.description)}</div>}
                  </span>
                </div>
              );
            })}
            {answer && ![...chosen].every((c) => labels.has(c)) && (
              <div className="q-opt chosen" data-testid="chosen-answer">
                <span>●</span>
                <span>{answer}</span>
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}

export function ExitPlanModeRenderer({ call }: RendererProps) {
  const i = input(call);
  const t = tur(call);
  const plan = str(t.plan) ?? str(i.plan) ?? '';
  const verdict = call.result ? (ok(call) ? 'approved' : 'rejected') : 'awaiting approval';
  return (
    <div data-testid="renderer-ExitPlanMode" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div className="row">
        <span
          className={`badge ${verdict === 'approved' ? 'ok' : verdict === 'rejected' ? 'expected' : 'pending'}`}
          data-testid="plan-verdict"
        >
          {verdict}
        </span>
        {str(t.filePath) && <span className="path dim">{str(t.filePath)}</span>}
      </div>
      <div className="plan">
        <Markdown text={plan} />
      </div>
    </div>
  );
}

export function EnterPlanModeRenderer({ call }: RendererProps) {
  const t = tur(call);
  return (
    <div data-testid="renderer-EnterPlanMode" className="row">
      <span className="badge accent">plan mode</span>
      <span style={{ color: 'var(--text-2)' }}>
        {str(t.message) ?? stripReminders(resultText(call.result?.content)).split('\n')[0]}
      </span>
    </div>
  );
}

export function SkillRenderer({ call }: RendererProps) {
  const i = input(call);
  const t = tur(call);
  const name = str(t.commandName) ?? str(i.skill) ?? str(i.command);
  return (
    <div data-testid={`renderer-${call.name === 'SlashCommand' ? 'SlashCommand' : 'Skill'}`} className="row">
      <span className="badge accent">{call.name === 'SlashCommand' ? 'slash command' : 'skill'}</span>
      <span className="mono" style={{ fontWeight: 600 }}>
        {call.name === 'SlashCommand' ? str(i.command) : name}
      </span>
      {str(i.args) && <span className="mono dim">{str(i.args)}</span>}
      {ok(call) && <span className="dim">launched {name}</span>}
    </div>
  );
}

export function LspRenderer({ call }: RendererProps) {
  const i = input(call);
  const t = tur(call);
  return (
    <div data-testid="renderer-LSP" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div className="row">
        <span className="badge accent">{str(t.operation) ?? str(i.operation)}</span>
        <span className="path">
          {str(t.filePath) ?? str(i.filePath)}
          {num(i.line) !== undefined && `:${num(i.line)}:${num(i.character) ?? 0}`}
        </span>
      </div>
      {ok(call) && <Plain text={str(t.result) ?? resultText(call.result?.content)} />}
    </div>
  );
}

export function CronRenderer({ call }: RendererProps) {
  const i = input(call);
  const t = tur(call);
  const jobs = arr(t.jobs).map(obj);
  const when = (ms: number | undefined) => (ms ? new Date(ms).toLocaleString('en-US', { hour12: false }) : undefined);
  return (
    <div data-testid={`renderer-${call.canonicalName}`} style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      {call.canonicalName === 'CronCreate' && (
        <KV
          rows={[
            ['schedule', `${str(i.cron) ?? ''}${str(t.humanSchedule) ? `  (${str(t.humanSchedule)})` : ''}`],
            ['prompt', str(i.prompt)],
            ['job', str(t.id)],
            ['recurring', t.recurring === undefined ? undefined : String(t.recurring)],
            ['durable', t.durable === undefined ? undefined : String(t.durable)],
            ['next run', when(num(t.nextFireAt))],
          ]}
        />
      )}
      {call.canonicalName === 'CronDelete' && (
        <KV
          rows={[
            ['job', str(i.id) ?? str(t.id)],
            ['result', ok(call) ? 'cancelled' : undefined],
          ]}
        />
      )}
      {call.canonicalName === 'CronList' &&
        (jobs.length === 0 ? (
          <span className="dim">No scheduled jobs.</span>
        ) : (
          jobs.map((j) => (
            <div key={str(j.id)} className="shell-card">
              <span className="pill">{str(j.id)}</span>
              <span className="mono">{str(j.cron)}</span>
              <span className="dim">{str(j.humanSchedule)}</span>
              <span>{str(j.prompt)}</span>
            </div>
          ))
        ))}
    </div>
  );
}

export function WorktreeRenderer({ call }: RendererProps) {
  const i = input(call);
  const t = tur(call);
  return (
    <div data-testid={`renderer-${call.canonicalName}`} style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <KV
        rows={[
          ['action', str(t.action) ?? str(i.action) ?? (call.canonicalName === 'EnterWorktree' ? 'create' : undefined)],
          ['name', str(i.name)],
          ['worktree', str(t.worktreePath)],
          ['branch', str(t.worktreeBranch)],
          ['back in', str(t.restoredCwd)],
          [
            'discarded',
            num(t.discardedFiles) !== undefined
              ? `${num(t.discardedFiles)} files, ${num(t.discardedCommits)} commits`
              : undefined,
          ],
        ]}
      />
      {ok(call) && str(t.message) && <div className="dim">{str(t.message)}</div>}
    </div>
  );
}

/** MCP tools: text and image content blocks. */
export function McpRenderer({ call }: RendererProps) {
  const [, server = '', tool = ''] = call.name.split('__');
  const text = stripReminders(resultText(call.result?.content));
  const images = resultImages(call);
  const i = input(call);
  return (
    <div data-testid="renderer-mcp" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div className="row dim" style={{ fontSize: 12 }}>
        MCP server <span className="pill">{server}</span> tool <span className="pill">{tool}</span>
      </div>
      {Object.keys(i).length > 0 && (
        <Section label="Input">
          <Json value={i} />
        </Section>
      )}
      {ok(call) && text && <Markdown text={text} />}
      <Images images={images} />
    </div>
  );
}

/** Any other tool: its input as fields, its text result, and its structured result as JSON. */
export function GenericRenderer({ call }: RendererProps) {
  const i = input(call);
  const text = stripReminders(resultText(call.result?.content));
  const raw = call.result?.toolUseResult;
  const images = resultImages(call);
  const simple = Object.entries(i).every(([, v]) => !isObj(v) && !Array.isArray(v));
  return (
    <div
      data-testid="renderer-generic"
      data-tool={call.canonicalName}
      style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
    >
      {Object.keys(i).length > 0 &&
        (simple ? (
          <KV rows={Object.entries(i).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as const)} />
        ) : (
          <Section label="Input">
            <Json value={i} />
          </Section>
        ))}
      {ok(call) && text && (
        <Section label="Result">
          <Plain text={text} />
        </Section>
      )}
      <Images images={images} />
      {ok(call) && raw !== undefined && raw !== null && typeof raw === 'object' && (
        <details>
          <summary className="dim" style={{ cursor: 'pointer', fontSize: 12.5 }}>
            Structured result
          </summary>
          <Json value={raw} testId="raw-json" />
        </details>
      )}
    </div>
  );
}
