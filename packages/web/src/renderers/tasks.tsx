import { useTimeline } from '../timeline/context';
import { arr, inputOf, obj, ok, type RendererProps, renderKindOf, resultText, str, typedOf } from './common';

interface Todo {
  readonly key: string;
  readonly text: string;
  readonly status: string;
}

function todosOf(value: unknown): Todo[] {
  return arr(value).map((t, n) => {
    const o = obj(t);
    // a bare string among the items (a malformed list) is its text, not an empty item
    const text = str(t) ?? str(o.content) ?? str(o.subject) ?? str(o.activeForm) ?? '';
    return { key: str(o.id) ?? text ?? String(n), text, status: str(o.status) ?? 'pending' };
  });
}

function TodoItem({ todo, mark }: { todo: Todo; mark?: 'added' | 'changed' | 'removed' }) {
  return (
    <div className={`todo ${todo.status} ${mark ?? ''}`} data-testid={mark ? `todo-${mark}` : 'todo'}>
      <span className={`todo-box ${todo.status}`}>
        {todo.status === 'completed' ? '✓' : todo.status === 'in_progress' ? '•' : ''}
      </span>
      <span className="todo-text">{todo.text}</span>
      {todo.status === 'in_progress' && <span className="badge pending">in progress</span>}
    </div>
  );
}

export function TodoWriteRenderer({ call }: RendererProps) {
  const { todosBefore } = useTimeline();
  const t = typedOf(call, 'todo-write');
  // The thread's previous list when the client wrote an empty one after it (a subagent's, in Claude Code 1.0.98), or
  // none (Codex's update_plan writes only the new plan).
  const recorded = t?.oldTodos !== undefined;
  const inferred = t?.oldTodos === undefined || t.oldTodos.length === 0 ? todosBefore?.get(call.id) : undefined;
  // Codex's first update_plan of a thread: the plan before it is unknown, not empty.
  const before =
    inferred !== undefined ? todosOf(inferred) : t?.oldTodos === undefined ? undefined : todosOf(t.oldTodos);
  const after = todosOf(t?.newTodos ?? inputOf(call).todos);
  const beforeByText = new Map((before ?? []).map((x) => [x.text, x]));
  const afterTexts = new Set(after.map((x) => x.text));
  const removed = (before ?? []).filter((x) => !afterTexts.has(x.text));
  const done = after.filter((x) => x.status === 'completed').length;
  return (
    <div data-testid="renderer-TodoWrite">
      <div className="dim" style={{ fontSize: 12.5, marginBottom: 8 }}>
        {done}/{after.length} completed
        {before === undefined && t !== undefined && ' · the plan before this update is not in the transcript'}
      </div>
      <div className={before === undefined ? undefined : 'todos'}>
        {before !== undefined && (
          <div>
            <div className="section-label">Before</div>
            {inferred !== undefined && (
              <div className="dim" style={{ fontSize: 12 }} data-testid="todos-before-inferred">
                {recorded
                  ? "from the previous update in this thread: this one's result records an empty list before it"
                  : 'from the previous update in this thread: the client records only the new plan'}
              </div>
            )}
            {before.length === 0 ? (
              <div className="dim" style={{ fontSize: 12.5 }}>
                (empty)
              </div>
            ) : (
              before.map((x) => (
                <TodoItem key={`b-${x.key}`} todo={x} mark={afterTexts.has(x.text) ? undefined : 'removed'} />
              ))
            )}
          </div>
        )}
        <div>
          <div className="section-label">{before === undefined ? 'Plan' : 'After'}</div>
          {after.map((x) => {
            const old = beforeByText.get(x.text);
            const mark = !old
              ? before !== undefined && before.length > 0
                ? 'added'
                : undefined
              : old.status !== x.status
                ? 'changed'
                : undefined;
            return <TodoItem key={`a-${x.key}`} todo={x} mark={mark} />;
          })}
          {removed.length > 0 && (
            <div className="dim" style={{ fontSize: 12 }}>
              {removed.length} removed
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

/** Longest value of a field shown in a task update's row. */
const FIELD_CHARS = 200;

/**
 * What a TaskUpdate asked to change, each field in words ("blocked by #1", "subject: …"): its result names the fields
 * changed (`updatedFields: ["blockedBy"]`), not their values. A status shown as its change is not said again.
 */
export function askedChanges(input: Readonly<Record<string, unknown>>, statusShown: boolean): [string, string][] {
  const ids = (value: unknown) =>
    arr(value)
      .map((id) => `#${typeof id === 'string' || typeof id === 'number' ? id : JSON.stringify(id)}`)
      .join(', ');
  const out: [string, string][] = [];
  for (const [field, value] of Object.entries(input)) {
    if (field === 'taskId' || value === undefined || value === null) continue;
    if (field === 'status') {
      if (!statusShown) out.push([field, `status → ${str(value) ?? JSON.stringify(value)}`]);
    } else if (field === 'addBlockedBy') out.push([field, `blocked by ${ids(value)}`]);
    else if (field === 'addBlocks') out.push([field, `blocks ${ids(value)}`]);
    else {
      const text = str(value) ?? JSON.stringify(value);
      out.push([field, `${field}: ${text.length > FIELD_CHARS ? `${text.slice(0, FIELD_CHARS)}…` : text}`]);
    }
  }
  return out;
}

export function TaskToolRenderer({ call }: RendererProps) {
  const i = inputOf(call);
  const kind = renderKindOf(call);
  const created = typedOf(call, 'task-create');
  const update = typedOf(call, 'task-update');
  const task = typedOf(call, 'task-get')?.task ?? undefined;
  const tasks = todosOf(typedOf(call, 'task-list')?.tasks);
  const change = update?.statusChange;
  const asked = kind === 'task-update' ? askedChanges(obj(call.input), change !== undefined) : [];
  return (
    <div data-testid={`renderer-${call.canonicalName}`} style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      {kind === 'task-create' && (
        <div className="row">
          <span className="badge ok">new</span>
          {created?.taskId && <span className="pill">#{created.taskId}</span>}
          <span style={{ fontWeight: 600 }}>{created?.subject ?? i.subject}</span>
          {(created?.description ?? i.description) && (
            <span className="dim">{created?.description ?? i.description}</span>
          )}
        </div>
      )}
      {kind === 'task-update' && (
        <div className="row">
          <span className="pill">#{update?.taskId ?? i.taskId}</span>
          {call.taskSubject !== undefined && (
            <span style={{ fontWeight: 600 }} data-testid="task-subject">
              {call.taskSubject}
            </span>
          )}
          {change?.from && change.to ? (
            <span data-testid="todo-changed">
              <span className="badge neutral">{change.from}</span> → <span className="badge pending">{change.to}</span>
            </span>
          ) : null}
          {asked.length > 0
            ? asked.map(([field, text]) => (
                <span key={field} className="dim" data-testid="task-update-field">
                  {text}
                </span>
              ))
            : (update?.updatedFields.length ?? 0) > 0 && (
                <span className="dim">updated {update?.updatedFields.join(', ')}</span>
              )}
          {update?.error && <span className="badge error">{update.error}</span>}
        </div>
      )}
      {kind === 'task-get' && (
        <div className="row">
          <span className="pill">#{task?.id ?? i.taskId}</span>
          <span style={{ fontWeight: 600 }}>{task?.subject ?? call.taskSubject}</span>
          {task?.status && <span className="badge neutral">{task.status}</span>}
          {task?.description && <span className="dim">{task.description}</span>}
          {/* no task by that id: what the tool answered ("Task not found"), never an empty row */}
          {task === undefined && ok(call) && (
            <span className="dim" data-testid="task-not-found">
              {resultText(call.result?.content) || 'no such task'}
            </span>
          )}
        </div>
      )}
      {kind === 'task-list' && ok(call) && (
        <div>
          {tasks.length === 0 ? (
            <span className="dim">No tasks.</span>
          ) : (
            tasks.map((x) => <TodoItem key={x.key} todo={x} />)
          )}
        </div>
      )}
    </div>
  );
}
