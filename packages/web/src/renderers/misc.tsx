import { Json } from '../ui/Json';
import { Markdown } from '../ui/Markdown';
import {
  Images,
  inputOf,
  isObj,
  KV,
  ok,
  Plain,
  type RendererProps,
  rawInput,
  renderKindOf,
  resultImages,
  resultText,
  Section,
  stripReminders,
  typedOf,
} from './common';

export function AskUserQuestionRenderer({ call }: RendererProps) {
  const i = inputOf(call);
  const t = typedOf(call, 'ask-user-question');
  const questions = t?.questions ?? i.questions ?? [];
  const answers: Readonly<Record<string, string>> = t?.answers ?? {};
  return (
    <div data-testid="renderer-AskUserQuestion" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      {questions.map((q, n) => {
        const question = q.question;
        const answer = Object.hasOwn(answers, question) ? answers[question] : undefined;
        const chosen = new Set((answer ?? '').split(',').map((s) => s.trim()));
        const labels = new Set(q.options.map((o) => o.label));
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: questions of one call
          <div className="q" key={n}>
            <div className="q-title">
              {q.header && (
                <span className="badge neutral" style={{ marginRight: 8 }}>
                  {q.header}
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
            {q.options.map((opt) => {
              const label = opt.label;
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
                    {opt.description && <div className="desc">{opt.description}</div>}
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
  const i = inputOf(call);
  const t = typedOf(call, 'exit-plan-mode');
  const plan = t?.plan ?? i.plan ?? '';
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
        {t?.filePath && <span className="path dim">{t.filePath}</span>}
      </div>
      <div className="plan">
        <Markdown text={plan} />
      </div>
    </div>
  );
}

export function EnterPlanModeRenderer({ call }: RendererProps) {
  const t = typedOf(call, 'enter-plan-mode');
  return (
    <div data-testid="renderer-EnterPlanMode" className="row">
      <span className="badge accent">plan mode</span>
      <span style={{ color: 'var(--text-2)' }}>
        {t?.message ?? stripReminders(resultText(call.result?.content)).split('\n')[0]}
      </span>
    </div>
  );
}

export function SkillRenderer({ call }: RendererProps) {
  const i = inputOf(call);
  const t = typedOf(call, 'skill');
  const name = t?.commandName ?? i.skillName;
  // a slash command is typed as a command line; a skill by its name
  const slash = i.command !== undefined;
  return (
    <div data-testid={`renderer-${slash ? 'SlashCommand' : 'Skill'}`} className="row">
      <span className="badge accent">{slash ? 'slash command' : 'skill'}</span>
      <span className="mono" style={{ fontWeight: 600 }}>
        {slash ? i.command : name}
      </span>
      {i.args && <span className="mono dim">{i.args}</span>}
      {ok(call) && <span className="dim">launched {name}</span>}
    </div>
  );
}

export function LspRenderer({ call }: RendererProps) {
  const i = inputOf(call);
  const t = typedOf(call, 'lsp');
  return (
    <div data-testid="renderer-LSP" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div className="row">
        <span className="badge accent">{t?.operation ?? i.operation}</span>
        <span className="path">
          {t?.filePath ?? i.filePath}
          {i.line !== undefined && `:${i.line}:${i.character ?? 0}`}
        </span>
      </div>
      {ok(call) && <Plain text={t?.result ?? resultText(call.result?.content)} />}
    </div>
  );
}

export function CronRenderer({ call }: RendererProps) {
  const i = inputOf(call);
  const kind = renderKindOf(call);
  const created = typedOf(call, 'cron-create');
  const jobs = typedOf(call, 'cron-list')?.jobs ?? [];
  const when = (ms: number | undefined) => (ms ? new Date(ms).toLocaleString('en-US', { hour12: false }) : undefined);
  return (
    <div data-testid={`renderer-${call.canonicalName}`} style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      {kind === 'cron-create' && (
        <KV
          rows={[
            ['schedule', `${i.schedule ?? ''}${created?.humanSchedule ? `  (${created.humanSchedule})` : ''}`],
            ['prompt', i.prompt],
            ['job', created?.id],
            ['recurring', created?.recurring === undefined ? undefined : String(created.recurring)],
            ['durable', created?.durable === undefined ? undefined : String(created.durable)],
            ['next run', when(created?.nextFireAt)],
          ]}
        />
      )}
      {kind === 'cron-delete' && (
        <KV
          rows={[
            ['job', i.jobId ?? typedOf(call, 'cron-delete')?.id],
            ['result', ok(call) ? 'cancelled' : undefined],
          ]}
        />
      )}
      {kind === 'cron-list' &&
        (jobs.length === 0 ? (
          <span className="dim">No scheduled jobs.</span>
        ) : (
          jobs.map((j) => (
            <div key={j.id} className="shell-card">
              <span className="pill">{j.id}</span>
              <span className="mono">{j.cron}</span>
              <span className="dim">{j.humanSchedule}</span>
              <span>{j.prompt}</span>
            </div>
          ))
        ))}
    </div>
  );
}

export function WorktreeRenderer({ call }: RendererProps) {
  const i = inputOf(call);
  const entered = typedOf(call, 'enter-worktree');
  const left = typedOf(call, 'exit-worktree');
  const t = left ?? entered;
  return (
    <div data-testid={`renderer-${call.canonicalName}`} style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <KV
        rows={[
          ['action', left?.action ?? i.action ?? (renderKindOf(call) === 'enter-worktree' ? 'create' : undefined)],
          ['name', i.name],
          ['worktree', t?.worktreePath],
          ['branch', t?.worktreeBranch],
          ['back in', left?.originalCwd],
          [
            'discarded',
            left?.discardedFiles !== undefined
              ? `${left.discardedFiles} files, ${left.discardedCommits} commits`
              : undefined,
          ],
        ]}
      />
      {ok(call) && t?.message && <div className="dim">{t.message}</div>}
    </div>
  );
}

/** MCP tools: text and image content blocks. */
export function McpRenderer({ call }: RendererProps) {
  const typed = typedOf(call, 'mcp');
  const [, named = '', namedTool = ''] = call.name.split('__');
  const server = typed?.server ?? named;
  const tool = typed?.tool ?? namedTool;
  // the typed text when there is one (the response as the tool gave it: Gemini CLI wraps it in <untrusted_context>)
  const text = stripReminders(typed?.text ?? resultText(call.result?.content));
  const images = resultImages(call);
  const i = rawInput(call);
  return (
    <div data-testid="renderer-mcp" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div className="row dim" style={{ fontSize: 12 }}>
        MCP server <span className="pill">{server}</span> tool <span className="pill">{tool}</span>
      </div>
      {call.typedInput.fromScript === true && (
        <div className="dim" data-testid="from-script">
          Called by an exec script while it ran (a tools call in its code), not by the model
        </div>
      )}
      {Object.keys(i).length > 0 && (
        <Section label="Input">
          <Json value={i} />
        </Section>
      )}
      {ok(call) && text && <McpText text={text} />}
      <Images images={images} />
    </div>
  );
}

/** At most this many characters of a result are tried as JSON (a larger text is shown as it is). */
const JSON_TRY_CHARS = 2_000_000;

/**
 * An MCP tool's text result. Many servers answer JSON (`{"results": "Found 10 results:\n\n1. …"}`): read as
 * Markdown, its escapes showed as `\n` and its stars as stray bold. An object of a few texts shows each text as
 * Markdown under its name; other JSON as JSON; anything else as Markdown.
 */
function McpText({ text }: { text: string }) {
  const parsed = jsonOf(text);
  if (parsed === undefined) return <Markdown text={text} />;
  const fields = isObj(parsed) ? Object.entries(parsed) : [];
  if (fields.length > 0 && fields.length <= 4 && fields.every(([, v]) => typeof v === 'string')) {
    return (
      <>
        {fields.map(([name, value]) => (
          <Section key={name} label={name}>
            <Markdown text={String(value)} />
          </Section>
        ))}
      </>
    );
  }
  return <Json value={parsed} />;
}

/** The JSON object or array a text holds, else undefined. */
function jsonOf(text: string): unknown {
  if (text.length > JSON_TRY_CHARS || !/^\s*[[{]/.test(text)) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Any other tool: its input as fields, its text result, and its structured result as JSON. */
export function GenericRenderer({ call }: RendererProps) {
  const i = rawInput(call);
  const text = stripReminders(resultText(call.result?.content));
  // the `unknown` kind keeps the agent's structured output as written: shown as JSON, never read by field
  const typed = call.result?.typed;
  const raw = typed?.kind === 'unknown' ? typed.toolUseResult : undefined;
  const images = resultImages(call);
  const simple = Object.entries(i).every(([, v]) => !isObj(v) && !Array.isArray(v));
  // A script's (Codex exec) shell commands, read from it by the adapter: what it ran, before the script itself.
  const commands = inputOf(call).commands ?? [];
  return (
    <div
      data-testid="renderer-generic"
      data-tool={call.canonicalName}
      style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
    >
      {commands.length > 0 && (
        <Section label={commands.length === 1 ? 'Runs' : `Runs ${commands.length} commands`}>
          <div className="code">
            <pre data-testid="script-commands">{commands.map((command) => `$ ${command}`).join('\n')}</pre>
          </div>
        </Section>
      )}
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
