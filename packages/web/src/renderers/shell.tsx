import { exitOutput } from '@agentdash/core/model';
import { plural } from '@agentdash/core/present';
import { useTimeline } from '../timeline/context';
import { fmtBytes, fmtDuration } from '../ui/format';
import { sessionHref } from '../ui/router';
import {
  AwaitingNote,
  awaitingText,
  Hunks,
  Images,
  inputOf,
  KV,
  ok,
  Plain,
  type RendererProps,
  rawInput,
  resultImages,
  resultText,
  stripReminders,
  Terminal,
  typedOf,
} from './common';

export function BashRenderer({ call }: RendererProps) {
  const i = inputOf(call);
  const d = typedOf(call, 'bash');
  // A call that writes to a running session (Codex write_stdin) has no command: it names that session instead. Arguments
  // the model wrote that are no JSON (Codex keeps them as `{arguments, invalidJson}`) are shown as written.
  const raw = rawInput(call);
  const unparsed = raw.invalidJson === true && typeof raw.arguments === 'string' ? raw.arguments : undefined;
  const command =
    i.command ?? (i.taskId !== undefined ? `# to session ${i.taskId}` : unparsed !== undefined ? unparsed : '');
  const text = stripReminders(resultText(call.result?.content));
  // Typed from the content alone, stdout is the content: shown without the client's reminders, as before.
  const fromContent = d !== undefined && d.stderr === '' && d.stdout === resultText(call.result?.content);
  const structured = fromContent ? undefined : d;
  // A command that exited non-zero (timed out included) shows its output as core reads it for every agent (Gemini's
  // result is the client's framed text, Claude Code's starts with the code the badge shows).
  const exit = call.result?.error?.exitCode !== undefined ? call.result.error : undefined;
  // A command sent to the background printed nothing yet: what the client told the model (its id, the file its
  // output goes to) is shown, not "(no output)".
  const waiting = structured?.backgroundTaskId !== undefined && structured.stdout === '' && structured.stderr === '';
  // A command whose stdout is an image (Claude Code's `isImage`: a data URL) shows the image, not its base64.
  const images = structured?.isImage === true ? resultImages(call) : [];
  const printed = exit ? exitOutput(exit.message) : ok(call) && structured && !waiting ? structured.stdout : text;
  const stdout = images.length > 0 ? '' : printed;
  const stderr = ok(call) && structured ? structured.stderr : undefined;
  // Only what the result says: a command still running when the call returned has no exit code yet.
  const exitCode = call.result?.error?.exitCode ?? d?.exitCode;
  const running = d?.runningSessionId;
  const timedOut = d?.timedOutAfterMs;
  const interpretation = d?.returnCodeInterpretation;
  const bg = structured?.backgroundTaskId;
  const persisted = structured?.persistedOutputPath;
  return (
    <div data-testid="renderer-Bash" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <Terminal
        command={command}
        stdin={i.stdin}
        stdout={call.result ? stdout : undefined}
        stderr={stderr}
        empty={images.length > 0 ? 'Its output is an image:' : awaitingText(call)}
        testId="terminal"
        badges={
          <>
            {call.result && exitCode !== undefined && (
              <span className={`badge ${exitCode === 0 ? 'ok' : 'error'}`} data-testid="exit-code">
                exit {exitCode}
              </span>
            )}
            {call.result && exitCode === undefined && running !== undefined && (
              <span
                className="badge pending"
                data-testid="running-session"
                title="The command had not exited when the call returned; later calls reach it by this session id"
              >
                still running · session {running}
              </span>
            )}
            {unparsed !== undefined && (
              <span className="badge error" title="The arguments the model wrote, as written: they are not JSON">
                arguments not JSON
              </span>
            )}
            {structured?.interrupted === true && <span className="badge unanswered">interrupted</span>}
            {timedOut !== undefined && (
              <span className="badge unanswered">timed out after {fmtDuration(timedOut)}</span>
            )}
            {interpretation && <span className="dim">{interpretation}</span>}
            {(bg || i.background === true) && (
              <span className="badge accent" data-testid="background-id">
                background{bg ? ` · ${bg}` : ''}
              </span>
            )}
            {structured?.isImage === true && <span className="badge neutral">image output</span>}
            {i.timeoutMs !== undefined && <span className="dim">timeout {i.timeoutMs} ms</span>}
          </>
        }
      />
      <Images images={images} />
      {d?.editedFiles !== undefined && (
        // the files the client saw the command change (a formatter's edits), with their hunks
        <div data-testid="edited-files">
          <div className="dim">Changed {plural(d.editedFiles.length, 'file')}, as the client saw them change:</div>
          {d.editedFiles.map((f) => (
            <div key={f.filePath} style={{ marginTop: 6 }}>
              <div className="row">
                <span className="path">{f.filePath}</span>
                <span className="dim">
                  +{f.linesAdded} −{f.linesRemoved}
                </span>
              </div>
              <Hunks patch={f.structuredPatch} />
            </div>
          ))}
        </div>
      )}
      {persisted && (
        <div className="truncated-note" data-testid="persisted-output">
          Full output ({fmtBytes(structured?.persistedOutputSize)}) was saved by the client to{' '}
          <span className="path">{persisted}</span>
        </div>
      )}
    </div>
  );
}

function ShellLink({ id }: { id: string | undefined }) {
  const { sessionId, shells } = useTimeline();
  if (!id) return <span className="dim">unknown shell</span>;
  const callId = shells[id];
  return callId ? (
    <a
      href={sessionHref(sessionId, callId)}
      className="mono"
      data-testid="shell-link"
      title="Go to the command that started it"
    >
      {id} ↗
    </a>
  ) : (
    <span className="mono">{id}</span>
  );
}

function statusBadge(status: string | undefined) {
  if (!status) return null;
  const cls =
    status === 'running'
      ? 'pending'
      : status === 'completed'
        ? 'ok'
        : status === 'failed' || status === 'killed'
          ? 'error'
          : 'neutral';
  return <span className={`badge ${cls}`}>{status}</span>;
}

/** Output of a background task or shell: a status card, and its output. */
export function ShellOutputRenderer({ call }: RendererProps) {
  const t = typedOf(call, 'task-output');
  const id = inputOf(call).taskId ?? t?.taskId;
  const output = t?.stdout ?? t?.output;
  const stderr = t?.stderr;
  const exitCode = t?.exitCode ?? undefined;
  const command = t?.command ?? t?.description;
  return (
    <div data-testid={`renderer-${call.canonicalName}`} style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div className="shell-card" data-testid="shell-card">
        <span className="section-label" style={{ margin: 0 }}>
          {t?.taskType ?? 'shell'}
        </span>
        <ShellLink id={id} />
        {statusBadge(t?.status)}
        {t?.retrievalStatus && <span className="pill">{t.retrievalStatus}</span>}
        {exitCode !== undefined && <span className={`badge ${exitCode === 0 ? 'ok' : 'error'}`}>exit {exitCode}</span>}
        {command && (
          <span className="mono dim" style={{ flex: 1, minWidth: 200 }}>
            {command}
          </span>
        )}
      </div>
      {ok(call) && (output || stderr) && <Terminal stdout={output} stderr={stderr} testId="terminal" />}
      {ok(call) && !output && !stderr && t === undefined && (
        <Plain text={stripReminders(resultText(call.result?.content))} />
      )}
      <AwaitingNote call={call} />
    </div>
  );
}

/** A background task or shell stopped. */
export function ShellStopRenderer({ call }: RendererProps) {
  const t = typedOf(call, 'task-stop');
  const id = inputOf(call).taskId ?? t?.taskId;
  return (
    <div data-testid={`renderer-${call.canonicalName}`}>
      <div className="shell-card" data-testid="shell-card">
        <span className="section-label" style={{ margin: 0 }}>
          stop {t?.taskType ?? 'shell'}
        </span>
        <ShellLink id={id} />
        {/* without its result (running, unanswered) it is not known whether there was anything to stop */}
        {call.result === null ? null : ok(call) ? (
          <span className="badge ok">stopped</span>
        ) : (
          <span className="badge expected">not running</span>
        )}
        {t?.command && <span className="mono dim">{t.command}</span>}
      </div>
      {ok(call) && t?.message && (
        <div className="dim" style={{ marginTop: 6, fontSize: 12.5 }}>
          {t.message}
        </div>
      )}
      <AwaitingNote call={call} />
      <KV rows={[]} />
    </div>
  );
}
